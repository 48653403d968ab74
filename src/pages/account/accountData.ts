import { getSite } from '../../../core/content/index.ts';
import { accountPath } from '../../../core/paths.ts';
import { isTicked } from '../../../core/schemas/reach-settings.ts';
import { REQUEST_MAILS, type RequestMails } from '../../../core/schemas/message-settings.ts';
import { pageShell } from '../../renderer/shell.ts';
import type { DataContext } from '../registry.ts';
import type { AccountView } from '../../../core/views/account.ts';
import { STATE_SAVED_NOTICE } from '../../../core/views/age-assurance.ts';

/** What the account page says after an action on one of the member's ads (`?done=…`). */
export const AD_DONE_NOTICES = {
  edited: 'Your changes are saved. The ad is in review again.',
  'edit-in-review':
    'Your changes are in review. Your ad stays on the site as it was until they are approved.',
  deleted: 'Your ad is deleted. If it was live, it leaves the site within a few moments.',
  renewed: 'Your ad is renewed.',
} as const;

/** What the account page says after an action on a saved search (`?done=…`). */
export const SAVED_SEARCH_DONE_NOTICES = {
  'search-saved': 'Your search is saved. We email you its new ads, at most once a day.',
  'search-deleted': 'Your saved search is deleted. We will not email you about it again.',
} as const;

/** What the account page says after a change to notifications (`?done=…`). */
export const PUSH_DONE_NOTICES = {
  'device-added': 'Notifications are on for this device.',
  'device-removed': 'The device is removed: nothing more is sent to it.',
  'push-saved': 'Your notification settings are saved.',
} as const;

/** What the account page says after the "Who may reach me" form is saved (`?done=…`). */
export const REACH_DONE_NOTICE = 'Your settings are saved. They apply to the next first message.';

/** What the account page says after the "Messages" form is saved (`?done=…`). */
export const MESSAGES_DONE_NOTICE = 'Your message settings are saved.';

/** A radio button's value as posted, if it is one of the choices. */
const requestMailsOf = (value: string | undefined): RequestMails | undefined =>
  REQUEST_MAILS.find((choice) => choice === value);

/**
 * `/account`, for the signed-in member only: their email, whether it is verified, a new link, and
 * their ads (handed over by the server) with what they can do with each.
 */
export function accountData({ request }: DataContext<AccountView>) {
  const { brand } = getSite();
  const done = request?.query.done;
  // Delete and Renew of one of the ads (their refusal carries the ad's id).
  const aboutAds = request?.form?.values.adId !== undefined;
  // Delete of a saved search: its refusal is shown beside the saved searches.
  const aboutSaved = request?.form?.values.savedSearchId !== undefined;
  // The "Who may reach me" form: its refusal is shown in it, with what was typed.
  const aboutReach = request?.form?.values.reachForm !== undefined;
  const reachTyped = aboutReach ? request?.form?.values : undefined;
  // The "Messages" form: likewise.
  const aboutMessages = request?.form?.values.messagesForm !== undefined;
  const messagesTyped = aboutMessages ? request?.form?.values : undefined;
  // Notifications (a device, the settings form): refusals are shown in their section.
  const aboutPush = request?.form?.values.pushForm !== undefined;
  const pushTyped = request?.form?.values.pushForm === 'settings' ? request.form.values : undefined;
  const pushSaved = request?.read?.push?.settings;
  return {
    ...pageShell({
      title: `Your account - ${brand}`,
      description: `Your ${brand} account.`,
      path: accountPath(),
      robots: 'noindex, nofollow',
    }),
    access: 'members' as const,
    brand,
    /** Absent only on the dev server, which has no sessions. */
    member: request?.member,
    /** A new verification link was just sent (the resend form answers with ?sent=1). */
    linkSent: request?.query.sent === '1',
    // A refused action on one of the ads is shown beside the ads, not across the page.
    error:
      aboutAds || aboutSaved || aboutReach || aboutMessages || aboutPush
        ? undefined
        : request?.form?.error,
    reach: {
      minAge: reachTyped?.minAge ?? request?.read?.reach.minAge ?? '',
      maxAge: reachTyped?.maxAge ?? request?.read?.reach.maxAge ?? '',
      hiddenWords: reachTyped?.hiddenWords ?? request?.read?.reach.hiddenWords ?? '',
      // A refused form comes back as it was ticked (an unticked box is absent from the post, and
      // kept as '').
      verifiedOnly: reachTyped
        ? isTicked(reachTyped.verifiedOnly)
        : (request?.read?.reach.verifiedOnly ?? false),
    },
    reachError: aboutReach ? request?.form?.error : undefined,
    reachErrorField: aboutReach ? request?.form?.field : undefined,
    reachDone: done === 'reach-saved' ? REACH_DONE_NOTICE : undefined,
    messages: {
      requestMails:
        requestMailsOf(messagesTyped?.requestMails) ??
        request?.read?.messages.requestMails ??
        ('daily' as const),
      readReceipts: messagesTyped
        ? isTicked(messagesTyped.readReceipts)
        : (request?.read?.messages.readReceipts ?? false),
    },
    messagesError: aboutMessages ? request?.form?.error : undefined,
    messagesDone: done === 'messages-saved' ? MESSAGES_DONE_NOTICE : undefined,
    push: request?.read?.push,
    // A refused settings form comes back as it was ticked (an unticked box is absent).
    pushSettings: {
      requests: pushTyped ? isTicked(pushTyped.requests) : (pushSaved?.requests ?? false),
      savedSearches: pushTyped
        ? isTicked(pushTyped.savedSearches)
        : (pushSaved?.savedSearches ?? false),
      messageText: pushTyped ? isTicked(pushTyped.messageText) : (pushSaved?.messageText ?? false),
    },
    pushError: aboutPush ? request?.form?.error : undefined,
    pushDone:
      done && done in PUSH_DONE_NOTICES
        ? PUSH_DONE_NOTICES[done as keyof typeof PUSH_DONE_NOTICES]
        : undefined,
    savedSearches: request?.read?.savedSearches ?? [],
    savedError: aboutSaved ? request?.form?.error : undefined,
    savedDone:
      done && done in SAVED_SEARCH_DONE_NOTICES
        ? SAVED_SEARCH_DONE_NOTICES[done as keyof typeof SAVED_SEARCH_DONE_NOTICES]
        : undefined,
    ads: request?.read?.ads ?? [],
    statements: request?.read?.statements ?? [],
    adStatements: request?.read?.adStatements ?? {},
    reports: request?.read?.reports ?? [],
    verification: request?.read?.verification,
    ageAssurance: request?.read?.ageAssurance,
    stateDone: done === 'state-saved' ? STATE_SAVED_NOTICE : undefined,
    /** A refused action on one of the ads (not found, not renewable). */
    adsError: aboutAds ? request?.form?.error : undefined,
    done:
      done && done in AD_DONE_NOTICES
        ? AD_DONE_NOTICES[done as keyof typeof AD_DONE_NOTICES]
        : undefined,
  };
}
