import { findPublishedAd } from '../../../core/content/ad-by-id.ts';
import { getSite } from '../../../core/content/index.ts';
import { MESSAGE_MAX_CHARS } from '../../../core/schemas/message.ts';
import { routes } from '../../../core/paths.ts';
import { pageShell } from '../../renderer/shell.ts';
import type { NewMessageTarget, NewMessageView } from '../../../core/views/messages.ts';
import type { DataContext } from '../registry.ts';

/**
 * `/messages/new?ad={id}`: where Reply and Send Message lead (docs/product.md section 7). For a live
 * member ad, the form that starts a conversation with its poster; for a sample or editor's ad, a
 * plain word that nothing is delivered; otherwise why the ad takes no reply. The server works out
 * which (its server read, server/http/page-reads/); the dev server, without a database, sees published ads only.
 */
export function newMessageData({ request }: DataContext<NewMessageView>) {
  const { brand } = getSite();
  const target = request?.read?.target ?? devTarget(request?.query.ad);
  const title =
    'ad' in target ? target.ad.title : target.kind === 'unavailable' ? target.title : undefined;
  return {
    ...pageShell({
      title: title ? `Reply to "${title}" - ${brand}` : `Reply to an ad - ${brand}`,
      description: `Reply to an ad on ${brand}.`,
      path: routes.newMessage.path({}),
      robots: 'noindex, nofollow',
    }),
    access: 'members' as const,
    brand,
    target,
    /** Absent only on the dev server, which has no sessions: the form is shown. */
    canWrite: request?.member ? request.member.emailVerified : true,
    email: request?.member?.email,
    error: request?.form?.error,
    body: request?.form?.values.body ?? '',
    maxChars: MESSAGE_MAX_CHARS,
  };
}

/** Without the server (the dev server): a published ad, as a sample or editor's one. */
function devTarget(adParam: string | undefined): NewMessageTarget {
  const ad = adParam && /^\d{1,15}$/.test(adParam) ? findPublishedAd(Number(adParam)) : undefined;
  return ad ? { kind: 'not-member-ad', ad } : { kind: 'not-found' };
}
