// The mails of statements of reasons and appeals (docs/product.md section 6): a ban's
// (the member cannot sign in, so the link carries the statement's key), and an appeal's outcome.
// Each says what was decided and links to the decision's page; only the member's own ad is named.
import type { StatementView } from '../../core/views/statement.ts';
import { statementLines } from '../moderation/statement-view.ts';
import type { MailMessage } from './mailer.ts';
import { mail, type MailSite } from './messages.ts';

/** The statement's lines for a decision's mail: `link` is the decision's path with its key. */
export const statementMailLines = (site: MailSite, view: StatementView, link: string) =>
  statementLines(view, site.baseUrl, `${site.baseUrl}${link}`);

export function accountBannedMail(
  site: MailSite,
  to: string,
  view: StatementView,
  link: string,
): MailMessage {
  return mail(site, to, `Your ${site.brand} account was closed`, {
    intro: `Our moderators closed your ${site.brand} account. You cannot sign in any more.`,
    action: 'Read why, and appeal',
    url: `${site.baseUrl}${link}`,
    after: statementMailLines(site, view, link),
  });
}

/** `verification`: the decision was a verification selfie refused (a reversal verifies). */
export function appealDecidedMail(
  site: MailSite,
  to: string,
  view: StatementView,
  link: string,
  { verification = false } = {},
): MailMessage {
  const reversed = view.appeal.state === 'reversed';
  return mail(site, to, reversed ? 'Your appeal succeeded' : 'Your appeal was not upheld', {
    intro: reversed
      ? `A moderator read your appeal and reversed the decision: ${view.headline} The decision is undone.`
      : `A moderator read your appeal and the decision stands: ${view.headline}`,
    action: 'See the decision',
    url: `${site.baseUrl}${link}`,
    after:
      view.appeal.state === 'upheld'
        ? [`Why it stands: ${view.appeal.reply}`]
        : verification
          ? ['You are verified: “Real person”. Your ads and conversations show it within a minute.']
          : [
              'An ad that was removed is back on the site within a minute (or back in review if it expired meanwhile).',
            ],
  });
}
