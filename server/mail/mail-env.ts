// Where mail goes and what it links to, from the environment, for the server (server/index.ts) and
// `npm run alerts -- send` (scripts/alerts.ts) alike: SMTP_URL (else .eml files in MAIL_OUTBOX_DIR,
// default data/outbox), MAIL_FROM (default no-reply@ the site's host), and PUBLIC_BASE_URL (default
// the content's baseUrl) for the links.
import { resolve } from 'node:path';
import type { MailSettings } from './mailer.ts';
import type { MailSite } from './messages.ts';

export function mailFromEnv(
  env: NodeJS.ProcessEnv,
  content: { brand: string; baseUrl: string },
): { site: MailSite; settings: MailSettings } {
  const baseUrl = (env.PUBLIC_BASE_URL ?? content.baseUrl).replace(/\/+$/, '');
  return {
    site: { brand: content.brand, baseUrl },
    settings: {
      smtpUrl: env.SMTP_URL || undefined,
      outboxDir: resolve(env.MAIL_OUTBOX_DIR ?? 'data/outbox'),
      from: env.MAIL_FROM ?? `"${content.brand}" <no-reply@${new URL(baseUrl).hostname}>`,
    },
  };
}
