import { describe, expect, it } from 'vitest';
import { parseRateLimit, parseRetryFields } from '../../../src/portal/ui/retry-fields';

describe('the portal retry and rate-limit fields', () => {
  it('reads waits separated by commas or spaces, with the attempts; both empty means the service schedule', () => {
    expect(parseRetryFields('30s, 5m  1h', ' 5 ')).toEqual({ retry: { schedule: ['30s', '5m', '1h'], max_attempts: 5 } });
    expect(parseRetryFields('  ', '')).toEqual({});
  });
  it('asks for both, and a whole number of attempts (the bounds are the server’s to name)', () => {
    expect(parseRetryFields('1m', '')).toHaveProperty('error');
    expect(parseRetryFields('', '3')).toHaveProperty('error');
    expect(parseRetryFields('1m', 'three')).toHaveProperty('error');
    expect(parseRetryFields('7h', '99')).toEqual({ retry: { schedule: ['7h'], max_attempts: 99 } });
  });
  it('reads a rate limit, empty for none', () => {
    expect(parseRateLimit(' 10 ')).toEqual({ rateLimit: 10 });
    expect(parseRateLimit('')).toEqual({});
    expect(parseRateLimit('2.5')).toHaveProperty('error');
  });
});
