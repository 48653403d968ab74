// What is new in a member's folders, in the words the header and /messages both say
// (core/views/messages.ts, docs/product.md section 7).
import { describe, expect, it } from 'vitest';
import { newConversationsText } from '../../../core/views/messages.ts';

describe('newConversationsText', () => {
  it.each([
    [{ chats: 0, requests: 0 }, undefined],
    [{ chats: 1, requests: 0 }, '1 new chat'],
    [{ chats: 3, requests: 0 }, '3 new chats'],
    [{ chats: 0, requests: 1 }, '1 new request'],
    [{ chats: 0, requests: 2 }, '2 new requests'],
    [{ chats: 1, requests: 1 }, '2 new: 1 chat, 1 request'],
    [{ chats: 2, requests: 1_204 }, '1,206 new: 2 chats, 1,204 requests'],
  ])('%o reads %s', (counts, text) => {
    expect(newConversationsText(counts)).toBe(text);
  });
});
