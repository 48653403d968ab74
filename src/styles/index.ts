// Every stylesheet of the site, each once, in the order of the cascade: the renderer imports this
// module (src/renderer/+onRenderHtml.tsx), and nothing else loads a sheet (no @import;
// tests/unit/styles/stylesheets.test.ts checks that every sheet of this folder is listed here and
// that everything listed exists). The build bundles them in this order into one file, which every
// page links (vite.config.ts). Plain CSS, mobile first; breakpoints 640 / 900 / 1200 px.
//
// The first four come before the base, where site.css's @import put them until it was split
// (verification.css counts on coming before tiles-and-ads.css's .badge). A sheet added later goes
// where its rules should win a tie: usually last.
import './photo-field.css';
import './photos-elsewhere.css';
import './verification.css';
import './shield-review.css';
import './base.css';
import './layout.css';
import './tiles-and-ads.css';
import './articles.css';
import './forms.css';
import './account-and-posting.css';
import './moderation.css';
import './messages.css';
import './member-data.css';
import './reports.css';
import './search.css';
import './transparency.css';
import './queue-shield.css';
import './photo-field-enhanced.css';
import './statements.css';
import './reach.css';
import './nearby.css';
import './age-assurance.css';
import './chats.css';
import './push.css';
