import { describe, expect, test } from 'vitest';
import {
  adPath,
  cityPath,
  conversationPath,
  outputFileForPath,
  routes,
  statePath,
} from '../../core/paths.ts';

describe('paths', () => {
  test('use the full names, URL-encoded, as docs/product.md shows them', () => {
    expect(statePath('New Hampshire')).toBe('/state/New%20Hampshire');
    expect(cityPath('North Carolina', 'Chapel Hill')).toBe('/city/North%20Carolina/Chapel%20Hill');
    expect(cityPath('California', 'Los Angeles', 1)).toBe('/city/California/Los%20Angeles');
    expect(cityPath('California', 'Los Angeles', 3)).toBe('/city/California/Los%20Angeles/page/3');
    expect(adPath('Colorado', 'Cañon City', 1042)).toBe('/city/Colorado/Ca%C3%B1on%20City/ad/1042');
  });

  test('store pages under decoded names', () => {
    expect(outputFileForPath('/city/South%20Dakota/De%20Smet')).toBe(
      'city/South Dakota/De Smet/index.html',
    );
    expect(outputFileForPath('/')).toBe('index.html');
    expect(outputFileForPath(cityPath('Idaho', "Coeur d'Alene", 2))).toBe(
      "city/Idaho/Coeur d'Alene/page/2/index.html",
    );
  });

  test('a conversation is a number under /messages, so /messages/new is not one', () => {
    expect(conversationPath(42)).toBe('/messages/42');
    expect(routes.conversation.match('/messages/42')).toEqual({ conversationId: '42' });
    expect(routes.conversation.match('/messages/new')).toBeUndefined();
    expect(routes.conversation.match('/messages/4x2')).toBeUndefined();
    expect(routes.newMessage.match('/messages/new')).toEqual({});
  });
});
