import { once } from 'node:events';
import { createServer, get } from 'node:http';
import type { IncomingMessage, RequestOptions, Server } from 'node:http';
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { AddressInfo, LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Mock } from 'vitest';
import {
  callbackPortProblem,
  classifyAddress,
  createGuardedLookup,
  ForbiddenAddressError,
  isForbiddenAddress,
  portOf,
} from '../../../src/webhooks/address-policy';
import type { AddressClass, LookupAll } from '../../../src/webhooks/address-policy';

const CLASSIFIED: ReadonlyArray<readonly [string, AddressClass]> = [
  // loopback, in every notation that reaches 127.0.0.0/8
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::FFFF:7F00:1', 'loopback'],
  ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
  ['::127.0.0.1', 'loopback'], // IPv4-compatible
  ['64:ff9b::7f00:1', 'loopback'], // NAT64
  ['64:ff9b::127.0.0.1', 'loopback'],
  ['2002:7f00:1::', 'loopback'], // 6to4
  // private
  ['10.0.0.5', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['::ffff:10.0.0.1', 'private'],
  ['2002:c0a8:101::1', 'private'],
  ['fc00::1', 'private'],
  ['fd12::1', 'private'],
  ['fdff:ffff::1', 'private'],
  // link-local
  ['169.254.1.1', 'link-local'],
  ['169.254.170.2', 'link-local'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf::1', 'link-local'],
  // cgnat
  ['100.64.1.1', 'cgnat'],
  ['100.64.0.0', 'cgnat'],
  ['100.127.255.255', 'cgnat'],
  // metadata, before link-local / private / cgnat
  ['169.254.169.254', 'metadata'],
  ['100.100.100.200', 'metadata'],
  ['fd00:ec2::254', 'metadata'],
  ['::ffff:169.254.169.254', 'metadata'],
  ['::ffff:a9fe:a9fe', 'metadata'],
  ['0:0:0:0:0:ffff:a9fe:a9fe', 'metadata'],
  ['64:ff9b::a9fe:a9fe', 'metadata'],
  ['2002:a9fe:a9fe::', 'metadata'],
  // unspecified
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['::', 'unspecified'],
  ['::ffff:0.0.0.0', 'unspecified'],
  // multicast
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['ff02::1', 'multicast'],
  ['ff05::1:3', 'multicast'],
  ['::ffff:224.0.0.1', 'multicast'],
  // reserved
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'reserved'],
  ['192.0.0.8', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['198.19.255.255', 'reserved'],
  ['198.51.100.7', 'reserved'],
  ['203.0.113.9', 'reserved'],
  ['2001:db8::1', 'reserved'],
  ['3fff::1', 'reserved'],
  ['2001::1', 'reserved'], // Teredo
  ['2001:2::1', 'reserved'], // benchmarking
  ['100::1', 'reserved'], // discard-only, outside 2000::/3
  ['fec0::1', 'reserved'], // deprecated site-local, outside 2000::/3
  ['64:ff9b:1::1', 'reserved'], // local-use NAT64: embedding varies, so not unwrapped
  ['::ffff:0:7f00:1', 'reserved'], // SIIT translated form: not unwrapped
];

const PUBLIC: readonly string[] = [
  '8.8.8.8',
  '1.1.1.1',
  '9.255.255.255',
  '11.0.0.0',
  '126.255.255.255',
  '128.0.0.0',
  '172.15.255.255',
  '172.32.0.1',
  '100.63.255.255',
  '100.128.0.0',
  '169.253.255.255',
  '169.255.0.0',
  '192.0.1.1',
  '192.167.255.255',
  '192.169.0.0',
  '198.17.255.255',
  '198.20.0.0',
  '223.255.255.255',
  '2001:4860:4860::8888',
  '2606:4700:4700::1111',
  '2a00:1450:4001:81c::200e',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
  '2002:808:808::1',
];

describe('classifyAddress', () => {
  it.each(CLASSIFIED)('%s is %s', (ip, cls) => {
    expect(classifyAddress(ip)).toBe(cls);
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each(PUBLIC)('%s is public', (ip) => {
    expect(classifyAddress(ip)).toBeUndefined();
    expect(isForbiddenAddress(ip)).toBe(false);
  });

  it.each(['', 'localhost', 'example.com', '0177.0.0.1', '127.1', '2130706433', '1.2.3.4.5', '[::1]', ':::1'])(
    'refuses to classify non-address %j',
    (text) => {
      expect(() => classifyAddress(text)).toThrow(TypeError);
      expect(() => isForbiddenAddress(text)).toThrow(TypeError);
    },
  );
});

interface LookupResult {
  err: NodeJS.ErrnoException | null;
  address: string | LookupAddress[];
  family: number | undefined;
}

function runLookup(lookup: LookupFunction, hostname: string, options: LookupOptions): Promise<LookupResult> {
  return new Promise((resolve) => {
    lookup(hostname, options, (err, address, family) => resolve({ err, address, family }));
  });
}

/** A fake `dns.lookup` answering every name with `addresses`. */
function fakeLookup(addresses: LookupAddress[]): Mock<LookupAll> {
  return vi.fn<LookupAll>((_host, _options, callback) => queueMicrotask(() => callback(null, addresses)));
}

describe('createGuardedLookup with the system resolver', () => {
  // 'localhost' comes from /etc/hosts: no network needed.
  it.each([false, true])('rejects localhost when private addresses are not allowed (all: %s)', async (all) => {
    const { err, address } = await runLookup(createGuardedLookup({ allowPrivate: false }), 'localhost', { all });
    expect(err).toBeInstanceOf(ForbiddenAddressError);
    expect(err?.code).toBe('EFORBIDDENADDRESS');
    expect(err?.message).toMatch(/^callback host localhost resolves to (127\.0\.0\.1|::1) \(loopback address\)$/);
    expect(address).toEqual(all ? [] : '');
  });

  it('answers with one address when all is false', async () => {
    const result = await runLookup(createGuardedLookup({ allowPrivate: true }), 'localhost', { family: 4 });
    expect(result).toEqual({ err: null, address: '127.0.0.1', family: 4 });
  });

  it('answers with every address when all is true', async () => {
    const result = await runLookup(createGuardedLookup({ allowPrivate: true }), 'localhost', { family: 4, all: true });
    expect(result.err).toBeNull();
    expect(result.address).toContainEqual({ address: '127.0.0.1', family: 4 });
  });
});

describe('createGuardedLookup with an injected resolver', () => {
  const mixed: LookupAddress[] = [
    { address: '93.184.215.14', family: 4 },
    { address: '10.0.0.5', family: 4 },
  ];

  it.each([false, true])('rejects if any address is forbidden, even a later one (all: %s)', async (all) => {
    const lookup = createGuardedLookup({ allowPrivate: false, lookup: fakeLookup(mixed) });
    const { err } = await runLookup(lookup, 'example.internal', { all });
    expect(err).toBeInstanceOf(ForbiddenAddressError);
    expect(err?.message).toBe('callback host example.internal resolves to 10.0.0.5 (private address)');
    expect(err).toMatchObject({ hostname: 'example.internal', address: '10.0.0.5', addressClass: 'private' });
  });

  it('names the class of mapped IPv6 answers', async () => {
    const lookup = createGuardedLookup({
      allowPrivate: false,
      lookup: fakeLookup([{ address: '::ffff:169.254.169.254', family: 6 }]),
    });
    const { err } = await runLookup(lookup, 'rebind.example', {});
    expect(err?.message).toBe('callback host rebind.example resolves to ::ffff:169.254.169.254 (metadata address)');
  });

  it('lets private answers through when allowed', async () => {
    const lookup = createGuardedLookup({ allowPrivate: true, lookup: fakeLookup(mixed) });
    expect(await runLookup(lookup, 'example.internal', { all: true })).toEqual({ err: null, address: mixed, family: undefined });
  });

  it('passes public answers through, first one when all is false', async () => {
    const answers: LookupAddress[] = [
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
      { address: '93.184.215.14', family: 4 },
    ];
    const lookup = createGuardedLookup({ allowPrivate: false, lookup: fakeLookup(answers) });
    expect(await runLookup(lookup, 'example.com', {})).toEqual({ err: null, address: answers[0]!.address, family: 6 });
    expect(await runLookup(lookup, 'example.com', { all: true })).toEqual({ err: null, address: answers, family: undefined });
  });

  it('always asks the resolver for every address, keeping the caller options', async () => {
    const resolver = fakeLookup([{ address: '93.184.215.14', family: 4 }]);
    await runLookup(createGuardedLookup({ allowPrivate: false, lookup: resolver }), 'example.com', { family: 4, hints: 32 });
    expect(resolver).toHaveBeenCalledWith('example.com', { family: 4, hints: 32, all: true }, expect.any(Function));
  });

  it('passes resolver errors through', async () => {
    const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND nope.example'), { code: 'ENOTFOUND' });
    const resolver = vi.fn<LookupAll>((_host, _options, callback) => callback(notFound, []));
    const { err } = await runLookup(createGuardedLookup({ allowPrivate: false, lookup: resolver }), 'nope.example', {});
    expect(err).toBe(notFound);
  });

  it('fails an empty answer instead of connecting nowhere', async () => {
    const lookup = createGuardedLookup({ allowPrivate: true, lookup: fakeLookup([]) });
    const { err } = await runLookup(lookup, 'empty.example', {});
    expect(err?.code).toBe('ENOTFOUND');
  });

  it('fails closed on an answer that is not an IP address', async () => {
    const lookup = createGuardedLookup({ allowPrivate: false, lookup: fakeLookup([{ address: 'bogus', family: 4 }]) });
    const { err } = await runLookup(lookup, 'bogus.example', {});
    expect(err).toBeInstanceOf(TypeError);
  });
});

describe('createGuardedLookup end to end with node:http', () => {
  let server: Server;
  let port: number;
  let requests = 0;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      requests += 1;
      res.end('ok');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  });

  type Outcome = { status: number } | { error: NodeJS.ErrnoException };

  function request(host: string, lookup: LookupFunction, autoSelectFamily: boolean): Promise<Outcome> {
    // @types/node 20 lacks autoSelectFamily on RequestOptions, but http hands it to net.connect.
    const options: RequestOptions & { autoSelectFamily: boolean } = {
      host,
      port,
      path: '/hook',
      agent: false,
      timeout: 5_000,
      lookup,
      autoSelectFamily,
    };
    return new Promise((resolve) => {
      const req = get(options, (res: IncomingMessage) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
      });
      req.on('timeout', () => req.destroy(new Error('request timed out')));
      req.on('error', (error) => resolve({ error }));
    });
  }

  // autoSelectFamily (Node 20's default) makes net ask for all addresses; without it, for one.
  it.each([true, false])('refuses to connect to localhost (autoSelectFamily: %s)', async (autoSelectFamily) => {
    const before = requests;
    const lookup = vi.fn<LookupFunction>(createGuardedLookup({ allowPrivate: false }));
    const outcome = await request('localhost', lookup, autoSelectFamily);
    expect(outcome).toMatchObject({ error: { code: 'EFORBIDDENADDRESS' } });
    expect(requests).toBe(before);
    expect(lookup).toHaveBeenCalledOnce();
    expect(Boolean(lookup.mock.calls[0]?.[1].all)).toBe(autoSelectFamily);
  });

  it.each([true, false])('connects when private addresses are allowed (autoSelectFamily: %s)', async (autoSelectFamily) => {
    const before = requests;
    const outcome = await request('localhost', createGuardedLookup({ allowPrivate: true }), autoSelectFamily);
    expect(outcome).toEqual({ status: 200 });
    expect(requests).toBe(before + 1);
  });

  it('is not consulted for IP-literal hosts, which callers must check themselves', async () => {
    const lookup = vi.fn<LookupFunction>(createGuardedLookup({ allowPrivate: false }));
    const outcome = await request('127.0.0.1', lookup, true);
    expect(outcome).toEqual({ status: 200 });
    expect(lookup).not.toHaveBeenCalled();
  });
});

describe('callbackPortProblem', () => {
  it.each([80, 443, 1024, 8080, 8443, 65535])('allows %i', (port) => expect(callbackPortProblem(port)).toBeUndefined());
  it.each([
    [22, 'port 22 is not allowed'],
    [25, 'port 25 is not allowed'],
    [1023, 'port 1023 is not allowed'],
    [6379, 'port 6379 (Redis)'],
    [27017, 'port 27017 (MongoDB)'],
    [7233, 'port 7233 (Temporal)'],
  ])('refuses %i', (port, reason) => expect(callbackPortProblem(port)).toContain(reason));
  it('reads the scheme default when the URL names no port', () => {
    expect(portOf(new URL('https://example.com/hooks'))).toBe(443);
    expect(portOf(new URL('http://example.com/hooks'))).toBe(80);
    expect(portOf(new URL('https://example.com:8443/hooks'))).toBe(8443);
  });
});
