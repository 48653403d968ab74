// The words of a statement of reasons (core/views/statement.ts), from its stored row
// (store/parts/statements.ts): what was restricted and for how long, the clause, the facts, the
// trigger, whether it was automatic, and where its appeal stands. The page, the moderators' appeal
// list and the decision mail (statementLines) all say the same, from here.
import { formatDate } from '../../core/format.ts';
import { clauseOf, clausePath } from '../../core/schemas/terms-clauses.ts';
import type { StatementView } from '../../core/views/statement.ts';
import type { StatementRow } from '../../store/parts/statements.ts';

const quoted = (title: string | undefined) => (title ? `“${title}”` : '');

/** What was restricted, and for how long, by the kind of decision. */
function restrictionOf(row: StatementRow): { headline: string; restriction: string } {
  const title = quoted(row.facts.title);
  switch (row.kind) {
    case 'ad-rejected':
      return {
        headline: `Your ad ${title} was not approved.`,
        restriction:
          'The ad is not published. This lasts unless an appeal reverses it; you may also edit the ad and send it for review again.',
      };
    case 'edit-rejected':
      return {
        headline: `Your changes to your ad ${title} were not approved.`,
        restriction: 'The changes are not published; the ad stays live as it was before them.',
      };
    case 'ad-removed':
      return {
        headline: `Your ad ${title} was removed.`,
        restriction: 'The ad is off the site for good, unless an appeal reverses the decision.',
      };
    case 'ad-hidden':
      return {
        headline: `Your ad ${title} was taken off the site after reports.`,
        restriction:
          row.liftedAt === null
            ? 'The ad is off the site until a moderator has looked at the reports: it comes back if they find nothing wrong.'
            : row.liftedFor === null
              ? 'The ad was off the site until a moderator looked at the reports. They found nothing wrong, and the ad is back.'
              : 'The ad was off the site until a moderator decided on it: they removed it (or closed the account), a decision with its own statement and its own appeal.',
      };
    case 'photo-removed':
      return {
        headline: `A photo was removed from your ad.`,
        restriction: `The photo is off the site for good, and the same photo cannot be added again, unless an appeal reverses the decision. ${
          row.reasonKey === 'under-18'
            ? 'We keep the photo where only moderators can see it for a year at least, as US law asks of photos that may show someone under 18; a reversal puts it back.'
            : 'Until the appeal is decided or its time is over, we keep the photo where only moderators can see it, so a reversal puts it back; then it is deleted.'
        }`,
      };
    case 'account-banned':
      return {
        headline: 'Your account was closed.',
        restriction: `The account cannot sign in, its address cannot sign up again, and ${
          (row.facts.removedAds ?? []).length === 1
            ? 'its ad was'
            : `its ${(row.facts.removedAds ?? []).length} ads in review or live were`
        } removed. This is for good, unless an appeal reverses it.`,
      };
    case 'verification-refused':
      return {
        headline: 'Your verification selfie was not approved.',
        restriction:
          'Your profile shows no verified badge for it. You can ask for a new code and send a new selfie, or appeal. We keep the selfie for 30 days, or until an appeal of this decision is decided, then delete it.',
      };
  }
}

function triggerOf(row: StatementRow): { trigger: string; automated: string } {
  const flagged = row.automatedDetection
    ? ' Our automatic checks had flagged words in it for the moderator.'
    : '';
  if (row.automatedDecision)
    return {
      trigger: 'An automatic rule, after reports from members.',
      automated:
        row.liftedAt === null
          ? 'Automatic: no person decided. A moderator reviews the reports next.'
          : 'Automatic: no person decided. A moderator then reviewed the reports.',
    };
  if (row.trigger === 'report')
    return {
      trigger: 'Reports from members, which a moderator reviewed.',
      automated: `Decided by a moderator, not by automatic means.${flagged}`,
    };
  return {
    trigger: "A moderator's own review.",
    automated: `Decided by a moderator, not by automatic means.${flagged}`,
  };
}

/** What the member reads of a restriction a moderator lifted before any appeal decided it. */
export const liftedWords = (row: StatementRow & { liftedAt: string }) =>
  row.liftedFor === null
    ? `Lifted on ${formatDate(row.liftedAt.slice(0, 10))}: a moderator found no breach.`
    : `Replaced on ${formatDate(row.liftedAt.slice(0, 10))} by a moderator's decision, which you can read and appeal on its own.`;

function appealOf(row: StatementRow, now: Date): StatementView['appeal'] {
  const appeal = row.appeal;
  // Lifted with no appeal, or with one still open (closed by it): nothing is left to decide.
  if (row.liftedAt !== null && (!appeal || appeal.outcome === null))
    return {
      state: 'lifted',
      liftedAt: row.liftedAt,
      ...(appeal ? { text: appeal.text } : {}),
      ...(row.liftedFor !== null ? { replacedBy: row.liftedFor } : {}),
    };
  if (!appeal)
    return now.toISOString() < row.appealUntil
      ? { state: 'open', until: row.appealUntil }
      : { state: 'closed', until: row.appealUntil };
  if (appeal.outcome === null)
    return { state: 'in-review', filedAt: appeal.filedAt, text: appeal.text };
  if (appeal.outcome === 'reversed')
    return { state: 'reversed', decidedAt: appeal.decidedAt ?? '', text: appeal.text };
  return {
    state: 'upheld',
    decidedAt: appeal.decidedAt ?? '',
    text: appeal.text,
    reply: appeal.reply ?? '',
  };
}

/** The statement as the member reads it, `now` deciding whether it can still be appealed. */
export function statementView(row: StatementRow, now: Date): StatementView {
  const clause = clauseOf(row.clause);
  const { facts } = row;
  return {
    id: row.id,
    ...restrictionOf(row),
    clause: { number: clause.number, title: clause.title, href: clausePath(clause.number) },
    reason: facts.reason,
    ...(facts.note ? { note: facts.note } : {}),
    ...(facts.title !== undefined && row.kind !== 'photo-removed'
      ? { words: { title: facts.title, description: facts.description ?? '' } }
      : {}),
    ...(facts.photo ? { photo: facts.photo.alt || `Photo ${facts.photo.id}` } : {}),
    ...(facts.reports
      ? { reports: facts.reports.map(({ reason, count }) => `${reason} (${count})`) }
      : {}),
    ...(facts.flags ? { flags: facts.flags } : {}),
    ...triggerOf(row),
    decidedAt: row.decidedAt,
    ...(row.liftedAt !== null ? { lifted: liftedWords({ ...row, liftedAt: row.liftedAt }) } : {}),
    ...(row.liftedFor !== null ? { replacedBy: row.liftedFor } : {}),
    appeal: appealOf(row, now),
  };
}

const day = (at: string) => at.slice(0, 10);

/** The statement as the lines of a mail, with full links to the clause and to the appeal. */
export function statementLines(view: StatementView, baseUrl: string, appealUrl: string): string[] {
  return [
    view.restriction,
    `The rule: clause ${view.clause.number} of our terms, ${view.clause.title}: ${baseUrl}${view.clause.href}`,
    `Reason: ${view.reason}.`,
    ...(view.note ? [`Moderator's note: ${view.note}`] : []),
    ...(view.reports ? [`Reports received: ${view.reports.join(', ')}.`] : []),
    ...(view.flags ? [`Flagged by automatic checks: ${view.flags.join(', ')}.`] : []),
    `What prompted it: ${view.trigger} ${view.automated}`,
    ...(view.lifted ? [view.lifted] : []),
    view.appeal.state === 'open'
      ? `You can appeal until ${day(view.appeal.until)}: a moderator other than the one who decided reads it. Appeal here: ${appealUrl}`
      : `Read the whole statement: ${appealUrl}`,
  ];
}
