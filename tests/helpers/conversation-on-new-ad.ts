// The set-up most message tests start from: two new members, a live ad of the first, and the
// conversation the second starts about it (as a plain form post, as the reply page sends it).
import type { TestApp } from './api.ts';
import { conversationIdOf, insertLiveAd, startConversation } from './messages.ts';
import { makeMember, type TestMember } from './posting.ts';

export interface ConversationOnNewAd {
  poster: TestMember;
  replier: TestMember;
  adId: number;
  conversationId: number;
}

/** `title` names the ad (insertLiveAd's default unless told); `opening` is the first message. */
export async function conversationOnNewAd(
  t: TestApp,
  { title, opening = 'Hello' }: { title?: string; opening?: string } = {},
): Promise<ConversationOnNewAd> {
  const poster = await makeMember(t);
  const replier = await makeMember(t);
  const adId = await insertLiveAd(t, poster, title);
  const conversationId = conversationIdOf(await startConversation(t, replier, adId, opening));
  return { poster, replier, adId, conversationId };
}
