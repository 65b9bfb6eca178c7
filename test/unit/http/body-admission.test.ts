import { describe, expect, it } from 'vitest';
import { peerOf } from '../../../src/http/body-admission';

describe('peerOf', () => {
  it('counts an IPv4 address alone, an IPv4-mapped one as its IPv4 address, and an IPv6 one by its /64', () => {
    expect(peerOf('127.0.0.2')).toBe('127.0.0.2');
    expect(peerOf('::ffff:127.0.0.2')).toBe('127.0.0.2');
    expect(peerOf('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(peerOf('2001:db8:1:2::9')).toBe('2001:db8:1:2::/64');
    expect(peerOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(peerOf('::1')).toBe('0:0:0:0::/64');
    expect(peerOf(undefined)).toBe('unknown');
  });
});
