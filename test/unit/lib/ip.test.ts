import { describe, expect, it } from 'vitest';
import { canonicalIp, formatIpRange, parseIpRange } from '../../../src/lib/ip';

describe('canonicalIp', () => {
  it.each([
    ['127.0.0.2', '127.0.0.2'],
    ['2001:DB8:0:0:0:0:0:7', '2001:db8::7'],
    ['::1', '::1'],
    // IPv4-mapped IPv6, in each notation a dual-stack socket or a person may write it.
    ['::ffff:127.0.0.2', '127.0.0.2'],
    ['::FFFF:7f00:2', '127.0.0.2'],
    ['0:0:0:0:0:ffff:7f00:2', '127.0.0.2'],
  ])('%s is %s', (text, ip) => {
    expect(canonicalIp(text)).toBe(ip);
  });

  it.each(['', 'localhost', '127.0.0.2:80', '127.0.0.0/8', '256.0.0.1', 'fe80::1%eth0', '[::1]'])('%j is not an address', (text) => {
    expect(canonicalIp(text)).toBeUndefined();
  });
});

describe('parseIpRange', () => {
  it.each([
    ['127.0.0.2', { address: '127.0.0.2', family: 'ipv4', prefix: 32 }],
    ['127.0.0.2/32', { address: '127.0.0.2', family: 'ipv4', prefix: 32 }],
    ['10.0.0.0/8', { address: '10.0.0.0', family: 'ipv4', prefix: 8 }],
    ['0.0.0.0/0', { address: '0.0.0.0', family: 'ipv4', prefix: 0 }],
    ['2001:db8::/32', { address: '2001:db8::', family: 'ipv6', prefix: 32 }],
    ['2001:db8::7', { address: '2001:db8::7', family: 'ipv6', prefix: 128 }],
    // A mapped range of at least /96 covers IPv4 addresses only: it is that IPv4 range.
    ['::ffff:10.0.0.0/104', { address: '10.0.0.0', family: 'ipv4', prefix: 8 }],
    ['::ffff:127.0.0.2', { address: '127.0.0.2', family: 'ipv4', prefix: 32 }],
    ['::ffff:0.0.0.0/90', { address: '::ffff:0.0.0.0', family: 'ipv6', prefix: 90 }],
  ])('%s', (text, range) => {
    expect(parseIpRange(text)).toEqual(range);
  });

  it.each(['10.0.0.0/33', '2001:db8::/129', '10.0.0.0/', '10.0.0.0/x', '10.0.0.0/8/8', 'example.com/24', '10.0.0.0/-1'])('refuses %s', (text) => {
    expect(parseIpRange(text)).toBeUndefined();
  });

  it('formats a range as address/prefix', () => {
    expect(formatIpRange(parseIpRange('127.0.0.2')!)).toBe('127.0.0.2/32');
    expect(formatIpRange(parseIpRange('2001:db8::7')!)).toBe('2001:db8::7/128');
  });
});
