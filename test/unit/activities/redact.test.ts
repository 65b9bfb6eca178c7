import { describe, expect, it } from 'vitest';
import { authorizationSecrets, redactSecrets } from '../../../activities/redact';

describe('redactSecrets', () => {
  it('replaces every occurrence of each value, a longer one whole before a shorter one inside it', () => {
    expect(redactSecrets('x-api-key: k3y-v4lue; again k3y-v4lue', ['k3y-v4lue'])).toBe('x-api-key: [redacted]; again [redacted]');
    expect(redactSecrets('authorization: Bearer tok-123456', ['tok-123456', 'Bearer tok-123456'])).toBe('authorization: [redacted]');
  });

  it('redacts a value echoed JSON-escaped (with or without escaped slashes) or URL-encoded', () => {
    const secret = 'p/a"ss wörd+1';
    const echoes = [JSON.stringify({ h: secret }), JSON.stringify({ h: secret }).replaceAll('/', '\\/'), `h=${encodeURIComponent(secret)}`];
    expect(echoes.map((e) => redactSecrets(e, [secret]))).toEqual(['{"h":"[redacted]"}', '{"h":"[redacted]"}', 'h=[redacted]']);
  });

  it('redacts the start of a value the excerpt cap cut off at its end', () => {
    expect(redactSecrets('{"authorization":"Bearer tok-12', ['Bearer tok-123456'])).toBe('{"authorization":"[redacted]');
  });

  it('keeps a full excerpt within its 1024 characters, however much longer the marker is than the value', () => {
    const full = `${'x'.repeat(1009)} k3y1 k3y1 k3y1`;
    const out = redactSecrets(full, ['k3y1']);
    expect(Array.from(out)).toHaveLength(1024);
    expect(out).toBe(`${'x'.repeat(1009)} [redacted] [re`);
  });

  it('leaves text without the values, and skips empty and very short values', () => {
    expect(redactSecrets('ok', ['secret-value'])).toBe('ok');
    expect(redactSecrets('a 1 b', ['', '1', undefined])).toBe('a 1 b');
  });
});

describe('authorizationSecrets', () => {
  it('gives a bearer value whole and its token', () => {
    expect(authorizationSecrets('Bearer tok-123')).toEqual(['Bearer tok-123', 'tok-123']);
  });

  it('gives a basic value whole, its base64, the decoded pair and the password', () => {
    const value = `Basic ${Buffer.from('user:pa55word').toString('base64')}`;
    expect(authorizationSecrets(value)).toEqual([value, Buffer.from('user:pa55word').toString('base64'), 'user:pa55word', 'pa55word']);
  });
});
