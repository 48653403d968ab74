// What reporters and moderators read about reports (docs/product.md section 8): the refusals of a
// report, of a moderator's decision on a group, and the lines the moderation log and the pages
// write. The rules that choose them are filing.ts's and resolving.ts's.
import type { Resolution } from '../../store/parts/reports.ts';

/** Who the moderation log names for what reports did on their own (hiding an ad). */
export const REPORTS_MODERATOR = 'reports (automatic)';

export const REPORT_NOT_FOUND =
  'We couldn’t find that ad. It may have expired or been removed, so there is nothing to report.';
export const CONVERSATION_NOT_FOUND = 'We couldn’t find that conversation.';
export const ALREADY_REPORTED =
  'You have already reported this. A moderator will look at it; there is no need to send it again.';
export const ALREADY_DECIDED =
  'You reported this ad before, and a moderator has looked at it. You can report it again if it changes.';
export const TOO_MANY_REPORTS =
  'You have sent a lot of reports. Please wait a while and try again.';
export const NO_TARGET = 'Say which ad or conversation you are reporting.';
export const CONVERSATION_REASON = 'Choose one of the reasons listed for a conversation.';

export const NO_SUCH_REPORTS = 'There are no such reports.';
export const NEW_REPORTS_SINCE =
  'New reports arrived since you opened the page, so nothing was changed. Read them below and decide again.';
export const REMOVE_IS_FOR_ADS =
  'Remove applies to an ad. For a conversation, dismiss the reports or ban the member.';
export const OWN_AD_REPORTED = 'This is your own ad: another moderator must decide on its reports.';
export const EDITOR_AD_NOT_BANNED =
  "An editor's ad has no member account to ban. Remove the ad instead.";
export const NOBODY_TO_BAN = "The member's account no longer exists: there is nobody to ban.";
export const OWN_ACCOUNT_NOT_BANNED = 'You cannot ban your own account.';
export const AD_CHANGED = 'The ad changed; look again.';

const DONE_WORDS: Record<Resolution, string> = {
  dismissed: 'dismissed them',
  removed: 'removed the ad',
  banned: 'banned the account',
};

/** The refusal of a decision on a group another moderator decided first. */
export const alreadyHandled = (last: {
  resolution: Resolution;
  resolvedAt: string;
  moderator: string | null;
}) =>
  `These reports were already handled by ${last.moderator ?? 'another moderator'}, who ${DONE_WORDS[last.resolution] ?? 'closed them'} (${last.resolvedAt.slice(0, 16).replace('T', ' ')} UTC). Nothing was changed.`;
