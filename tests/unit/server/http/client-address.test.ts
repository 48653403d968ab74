// The key the rate limits count a client under: an IPv6 client by its /64, however the address is
// written, an embedded IPv4 tail counted as the two groups it stands for.
import { describe, expect, it } from 'vitest';
import { rateLimitKey } from '../../../../server/auth/client-address.ts';

describe('rateLimitKey', () => {
  it('counts an IPv4 client by its address', () => {
    expect(rateLimitKey('203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv6 client by its /64, written short or in full', () => {
    expect(rateLimitKey('2001:db8:1:2::7')).toBe('2001:0db8:0001:0002::/64');
    expect(rateLimitKey('2001:db8:1:2:3:4:5:6')).toBe('2001:0db8:0001:0002::/64');
  });

  it('reads an embedded IPv4 tail as two groups', () => {
    expect(rateLimitKey('2001:db8:1:2:3:4:192.0.2.1')).toBe('2001:0db8:0001:0002::/64');
    expect(rateLimitKey('2001:db8:1:2::192.0.2.1')).toBe('2001:0db8:0001:0002::/64');
  });
});
