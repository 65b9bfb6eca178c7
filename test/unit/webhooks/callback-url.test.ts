import { describe, expect, it, vi } from 'vitest';
import { checkCallbackUrl, MAX_CALLBACK_URL_LENGTH } from '../../../src/webhooks/callback-url';

/** A resolver that must never be reached: IP literals, bad shapes and non-public names need no DNS. */
const noDns = () => vi.fn((host: string): Promise<string[]> => Promise.reject(new Error(`unexpected lookup of ${host}`)));

const answering = (...addresses: string[]) => vi.fn((_host: string): Promise<string[]> => Promise.resolve(addresses));

async function reasonFor(raw: string, allowPrivate = false): Promise<string | undefined> {
  const resolve = noDns();
  const result = await checkCallbackUrl(raw, { allowPrivate, resolve });
  expect(resolve).not.toHaveBeenCalled();
  return result.ok ? undefined : result.reason;
}

describe('WHATWG URL host normalization the policy relies on', () => {
  it.each([
    ['http://2130706433/', '127.0.0.1'],
    ['http://0x7f000001/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://127.0.0.1./', '127.0.0.1'],
    ['http://%31%32%37.0.0.1/', '127.0.0.1'],
    ['http://0/', '0.0.0.0'],
    ['http://[::ffff:127.0.0.1]/', '[::ffff:7f00:1]'],
    ['http://[0:0:0:0:0:ffff:a9fe:a9fe]/', '[::ffff:a9fe:a9fe]'],
    ['http://[::127.0.0.1]/', '[::7f00:1]'],
    ['http://LocalHost./', 'localhost.'],
    ['http://ｌｏｃａｌｈｏｓｔ/', 'localhost'],
  ])('%s has hostname %s', (raw, hostname) => {
    expect(new URL(raw).hostname).toBe(hostname);
  });
});

describe('checkCallbackUrl: URL shape', () => {
  it.each([
    ['', 'must be an absolute http(s) URL'],
    ['not a url', 'must be an absolute http(s) URL'],
    ['/hooks/orders', 'must be an absolute http(s) URL'],
    ['example.com/hook', 'must be an absolute http(s) URL'],
    ['//example.com/hook', 'must be an absolute http(s) URL'],
    ['http://', 'must be an absolute http(s) URL'],
    ['https://[::1/hook', 'must be an absolute http(s) URL'],
    ['https://[fe80::1%25eth0]/hook', 'must be an absolute http(s) URL'],
    ['https://1.2.3.4.5/', 'must be an absolute http(s) URL'],
    ['ftp://example.com/hook', 'scheme ftp is not allowed; use https (or http)'],
    ['javascript:alert(1)', 'scheme javascript is not allowed; use https (or http)'],
    ['file:///etc/passwd', 'scheme file is not allowed; use https (or http)'],
    ['data:text/plain,hi', 'scheme data is not allowed; use https (or http)'],
    ['ws://example.com/hook', 'scheme ws is not allowed; use https (or http)'],
    ['gopher://example.com:70/_x', 'scheme gopher is not allowed; use https (or http)'],
    ['HTTPS://user:pass@example.com/hook', 'must not contain credentials'],
    ['https://user@example.com/hook', 'must not contain credentials'],
    ['https://:secret@example.com/hook', 'must not contain credentials'],
    ['https://example.com/hook#section', 'must not contain a fragment'],
    ['https://example.com/hook#', 'must not contain a fragment'],
  ])('%j is rejected: %s', async (raw, reason) => {
    expect(await reasonFor(raw)).toBe(reason);
    // allowPrivate relaxes only the destination rules.
    expect(await reasonFor(raw, true)).toBe(reason);
  });

  it('accepts exactly the maximum length and rejects one more character', async () => {
    const base = 'https://example.com/';
    const longest = base + 'a'.repeat(MAX_CALLBACK_URL_LENGTH - base.length);
    expect(longest).toHaveLength(2048);
    expect(await checkCallbackUrl(longest, { allowPrivate: true })).toMatchObject({ ok: true });
    expect(await reasonFor(`${longest}a`, true)).toBe('must be at most 2048 characters');
  });

  it('counts the length after percent-encoding', async () => {
    const raw = `https://example.com/${' '.repeat(700)}x`;
    expect(raw.length).toBeLessThan(MAX_CALLBACK_URL_LENGTH);
    expect(await reasonFor(raw, true)).toBe('must be at most 2048 characters');
  });

  it('returns the normalized URL', async () => {
    const resolve = answering('93.184.215.14');
    const result = await checkCallbackUrl('HTTPS://Example.COM:443/hook?a=1', { allowPrivate: false, resolve });
    expect(result.ok && result.url.href).toBe('https://example.com/hook?a=1');
  });
});

describe('checkCallbackUrl: IP-literal hosts', () => {
  it.each([
    // every IPv4 notation WHATWG folds into 127.0.0.1
    ['http://127.0.0.1/', 'host 127.0.0.1 is a loopback address'],
    ['http://2130706433/', 'host 127.0.0.1 is a loopback address'],
    ['http://0x7f000001/', 'host 127.0.0.1 is a loopback address'],
    ['http://0177.0.0.1/', 'host 127.0.0.1 is a loopback address'],
    ['http://127.1/', 'host 127.0.0.1 is a loopback address'],
    ['http://0x7f.1/', 'host 127.0.0.1 is a loopback address'],
    ['http://127.0.0.1./', 'host 127.0.0.1 is a loopback address'],
    ['http://%31%32%37.0.0.1/', 'host 127.0.0.1 is a loopback address'],
    ['https://127.0.0.1:8443/hook', 'host 127.0.0.1 is a loopback address'],
    // IPv6 loopback and its IPv4 wrappers
    ['http://[::1]/', 'host ::1 is a loopback address'],
    ['http://[::ffff:127.0.0.1]/', 'host ::ffff:7f00:1 is a loopback address'],
    ['http://[::ffff:7f00:1]/', 'host ::ffff:7f00:1 is a loopback address'],
    ['http://[::127.0.0.1]/', 'host ::7f00:1 is a loopback address'],
    ['http://[64:ff9b::7f00:1]/', 'host 64:ff9b::7f00:1 is a loopback address'],
    ['http://[2002:7f00:1::]/', 'host 2002:7f00:1:: is a loopback address'],
    // the other classes
    ['http://10.0.0.5/', 'host 10.0.0.5 is a private address'],
    ['http://172.16.0.1/', 'host 172.16.0.1 is a private address'],
    ['http://192.168.1.1/', 'host 192.168.1.1 is a private address'],
    ['http://[fd12::1]/', 'host fd12::1 is a private address'],
    ['http://[fe80::1]/', 'host fe80::1 is a link-local address'],
    ['http://169.254.1.1/', 'host 169.254.1.1 is a link-local address'],
    ['http://100.64.1.1/', 'host 100.64.1.1 is a cgnat address'],
    ['http://169.254.169.254/latest/meta-data/', 'host 169.254.169.254 is a metadata address'],
    ['http://[0:0:0:0:0:ffff:a9fe:a9fe]/', 'host ::ffff:a9fe:a9fe is a metadata address'],
    ['http://[fd00:ec2::254]/', 'host fd00:ec2::254 is a metadata address'],
    ['http://100.100.100.200/', 'host 100.100.100.200 is a metadata address'],
    ['http://0.0.0.0/', 'host 0.0.0.0 is an unspecified address'],
    ['http://0/', 'host 0.0.0.0 is an unspecified address'],
    ['http://[::]/', 'host :: is an unspecified address'],
    ['http://224.0.0.1/', 'host 224.0.0.1 is a multicast address'],
    ['http://[ff02::1]/', 'host ff02::1 is a multicast address'],
    ['http://255.255.255.255/', 'host 255.255.255.255 is a reserved address'],
    ['http://192.0.2.1/', 'host 192.0.2.1 is a reserved address'],
    ['http://[2001:db8::1]/', 'host 2001:db8::1 is a reserved address'],
  ])('%s is rejected: %s', async (raw, reason) => {
    expect(await reasonFor(raw)).toBe(reason);
    expect(await reasonFor(raw, true)).toBeUndefined();
  });

  it.each(['http://8.8.8.8/hook', 'https://172.32.0.1/hook', 'https://[2001:4860:4860::8888]/hook', 'https://[::ffff:8.8.8.8]/'])(
    '%s is public and needs no lookup',
    async (raw) => {
      expect(await reasonFor(raw)).toBeUndefined();
    },
  );
});

describe('checkCallbackUrl: hostnames', () => {
  it.each([
    ['http://localhost/', 'host localhost is not a public hostname'],
    ['http://LOCALHOST:3000/hook', 'host localhost is not a public hostname'],
    ['http://localhost./', 'host localhost. is not a public hostname'],
    ['http://api.localhost/', 'host api.localhost is not a public hostname'],
    ['http://printer.local/', 'host printer.local is not a public hostname'],
    ['http://metadata.google.internal/', 'host metadata.google.internal is not a public hostname'],
    ['http://example.internal./', 'host example.internal. is not a public hostname'],
    ['http://router.home.arpa/', 'host router.home.arpa is not a public hostname'],
    ['http://intranet/', 'host intranet is not a public hostname'],
    ['http://intranet./', 'host intranet. is not a public hostname'],
  ])('%s is rejected without a lookup: %s', async (raw, reason) => {
    expect(await reasonFor(raw)).toBe(reason);
    expect(await reasonFor(raw, true)).toBeUndefined();
  });

  it.each([
    [['93.184.215.14'], undefined],
    [['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'], undefined],
    [['93.184.215.14', '10.0.0.5'], 'host example.com resolves to 10.0.0.5 (private address)'],
    [['2606:2800:21f:cb07:6820:80da:af6b:8b2c', '::1'], 'host example.com resolves to ::1 (loopback address)'],
    [['127.0.0.1'], 'host example.com resolves to 127.0.0.1 (loopback address)'],
    [['::ffff:169.254.169.254'], 'host example.com resolves to ::ffff:169.254.169.254 (metadata address)'],
    [['fe80::1%eth0'], 'host example.com resolves to fe80::1%eth0 (link-local address)'],
    [['100.64.0.1'], 'host example.com resolves to 100.64.0.1 (cgnat address)'],
    [['not-an-ip'], 'host example.com resolves to not-an-ip (not an ip address)'],
    [[], 'host does not resolve'],
  ])('example.com resolving to %j: %s', async (addresses, reason) => {
    const resolve = answering(...addresses);
    const result = await checkCallbackUrl('https://example.com/hook', { allowPrivate: false, resolve });
    expect(result.ok ? undefined : result.reason).toBe(reason);
    expect(resolve).toHaveBeenCalledExactlyOnceWith('example.com');
  });

  it('names the host in the reason', async () => {
    const result = await checkCallbackUrl('https://example.test/hook', { allowPrivate: false, resolve: answering('127.0.0.1') });
    expect(result).toEqual({ ok: false, reason: 'host example.test resolves to 127.0.0.1 (loopback address)' });
  });

  it('rejects a host whose lookup fails', async () => {
    const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND nope.example'), { code: 'ENOTFOUND' });
    const resolve = vi.fn((_host: string): Promise<string[]> => Promise.reject(notFound));
    expect(await checkCallbackUrl('https://nope.example/', { allowPrivate: false, resolve })).toEqual({
      ok: false,
      reason: 'host does not resolve',
    });
  });

  it('resolves the normalized (lowercase, punycode) hostname', async () => {
    const resolve = answering('93.184.215.14');
    expect(await checkCallbackUrl('https://BÜCHER.example/hook', { allowPrivate: false, resolve })).toMatchObject({ ok: true });
    expect(resolve).toHaveBeenCalledExactlyOnceWith('xn--bcher-kva.example');
  });

  it('never resolves when private addresses are allowed', async () => {
    const resolve = noDns();
    expect(await checkCallbackUrl('https://example.com/hook', { allowPrivate: true, resolve })).toMatchObject({ ok: true });
    expect(resolve).not.toHaveBeenCalled();
  });
});

describe('empty authority', () => {
  it.each(['http:///hooks', 'https:///x', 'http:hooks.example.com/x'])('rejects %s: no host before the path', async (raw) => {
    expect(await checkCallbackUrl(raw, { allowPrivate: true })).toEqual({ ok: false, reason: 'must have a host' });
  });
});

describe('broker addresses (a subscription url with a broker destination)', () => {
  const schemes = ['https', 'http', 'amqps', 'amqp'];
  const check = (raw: string, resolve = noDns()) => checkCallbackUrl(raw, { allowPrivate: false, resolve, schemes });

  it('takes amqp(s) only when the caller lists them: a token URL stays http(s)', async () => {
    expect(await reasonFor('amqps://mq.example.com/orders')).toBe('scheme amqps is not allowed; use https (or http)');
    expect(await check('ftp://mq.example.com/')).toEqual({ ok: false, reason: 'scheme ftp is not allowed; use https (or http), or amqps (or amqp)' });
  });

  it("allows each scheme's own port, which is a refused service port for the others", async () => {
    expect(await check('amqp://mq.example.com/', answering('93.184.216.34'))).toMatchObject({ ok: true });
    expect(await check('amqps://mq.example.com:5671/', answering('93.184.216.34'))).toMatchObject({ ok: true });
    expect(await check('https://mq.example.com:5672/')).toEqual({ ok: false, reason: 'port 5672 (AMQP) is not allowed; use 443, 80 or another port from 1024 to 65535' });
    expect(await check('amqps://mq.example.com:6379/')).toEqual({ ok: false, reason: 'port 6379 (Redis) is not allowed; use 443, 80 or another port from 1024 to 65535' });
  });

  it('does the same for NATS and Redis addresses', async () => {
    const all = (raw: string, resolve = noDns()) => checkCallbackUrl(raw, { allowPrivate: false, resolve, schemes: [...schemes, 'tls', 'nats', 'rediss', 'redis'] });
    expect(await all('tls://nats.example.com', answering('93.184.216.34'))).toMatchObject({ ok: true });
    expect(await all('redis://redis.example.com/0', answering('93.184.216.34'))).toMatchObject({ ok: true });
    expect(await all('rediss://redis.example.com:6379', answering('93.184.216.34'))).toMatchObject({ ok: true });
    expect(await all('nats://nats.example.com:6379')).toEqual({ ok: false, reason: 'port 6379 (Redis) is not allowed; use 443, 80 or another port from 1024 to 65535' });
    expect(await all('redis://127.0.0.1:6379/')).toEqual({ ok: false, reason: 'host 127.0.0.1 is a loopback address' });
    expect(await all('nats://user:pw@nats.example.com/')).toEqual({ ok: false, reason: 'must not contain credentials' });
  });

  it('applies the address rules to broker hosts as to callbacks, and refuses credentials in the URL', async () => {
    expect(await check('amqp://127.0.0.1:5672/')).toEqual({ ok: false, reason: 'host 127.0.0.1 is a loopback address' });
    expect(await check('amqps://rabbit.internal/')).toEqual({ ok: false, reason: 'host rabbit.internal is not a public hostname' });
    expect(await check('amqps://mq.example.com/', answering('10.0.0.5'))).toEqual({ ok: false, reason: 'host mq.example.com resolves to 10.0.0.5 (private address)' });
    expect(await check('amqps://user:pw@mq.example.com/')).toEqual({ ok: false, reason: 'must not contain credentials' });
  });
});
