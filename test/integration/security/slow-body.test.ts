import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiMetrics } from '../../../src/telemetry/metrics';
import { startTestApi, type TestApi } from '../../support/api';
import { waitFor } from '../../support/wait';

const v1 = '/api/webhooks/v1';

/** A client that sends the headers of a large POST and one byte of its body, then stalls. */
interface SlowClient {
  socket: Socket;
  /** Everything the server sent back. */
  received(): string;
  closed(): boolean;
}

function slowClient(port: number, path: string): SlowClient {
  const socket = connect({ host: '127.0.0.1', port });
  let received = '';
  let closed = false;
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => undefined);
  socket.on('close', () => (closed = true));
  // Expect: 100-continue makes the server say when it has read the headers and handed the request on.
  socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\nExpect: 100-continue\r\n\r\n{`);
  return { socket, received: () => received, closed: () => closed };
}

/** A complete request from another loopback address (another peer), answered with its status and body. */
function fromPeer(base: string, localAddress: string, method: string, path: string, key: string, body?: unknown): Promise<{ status: number; body: string }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, {
      method,
      localAddress,
      headers: { authorization: `Bearer ${key}`, ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
      timeout: 20_000,
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('timeout', () => req.destroy(new Error('no answer in 20 s')));
    req.on('error', reject);
    req.end(payload);
  });
}

// Slow, unauthenticated bodies against a bound of 4 requests in flight: they must not take it.
describe('slow request bodies (finding 1)', () => {
  const bound = 4;
  const perPeer = 8;
  const slowCount = 12;
  let api: TestApi;
  let key: string;
  let port: number;
  const slow: SlowClient[] = [];

  beforeAll(async () => {
    api = await startTestApi({ API_MAX_IN_FLIGHT: String(bound), API_BODY_TIMEOUT: '2s', API_MAX_BODIES_PER_PEER: String(perPeer) }, { metrics: createApiMetrics() });
    key = (await api.clientWith(['webhooks:read', 'webhooks:write', 'resources:read'])).key;
    port = Number(new URL(api.baseUrl).port);
  });
  afterAll(async () => {
    for (const c of slow) c.socket.destroy();
    await api.close();
  });

  it('keeps serving authenticated requests while slow bodies arrive, refuses a peer\'s excess at once, and cuts the slow ones', async () => {
    for (let i = 0; i < slowCount; i++) slow.push(slowClient(port, `${v1}/subscribe`));
    // Every slow request reached the app: the server answered 100 Continue to each.
    await waitFor(() => slow.every((c) => c.received().startsWith('HTTP/1.1 100 Continue')), 10_000, 20);

    // Held bodies take no place in flight: a key's requests are served, from this peer and another.
    const list = await fromPeer(api.baseUrl, '127.0.0.1', 'GET', `${v1}/subscriptions`, key);
    expect(list.status, list.body).toBe(200);
    const created = await fromPeer(api.baseUrl, '127.0.0.2', 'POST', `${v1}/subscribe`, key, { url: 'http://127.0.0.1:9/hook', events: ['order.created'] });
    expect(created.status, created.body).toBe(201);
    expect((await fetch(`${api.baseUrl}/readyz`)).status).toBe(200);

    // One peer may have only `perPeer` bodies arriving at once: the rest were refused at once with 429.
    const refused = slow.filter((c) => / 429 /.test(c.received()));
    expect(refused).toHaveLength(slowCount - perPeer);
    for (const c of refused) expect(c.received()).toContain('API_MAX_BODIES_PER_PEER');

    // The others are cut at the body deadline with 408 and their connections closed.
    await waitFor(() => slow.every((c) => c.closed()), 20_000, 50);
    const cut = slow.filter((c) => / 408 /.test(c.received()));
    expect(cut).toHaveLength(perPeer);
    for (const c of cut) expect(c.received()).toContain('API_BODY_TIMEOUT');
    // Nothing of theirs was written: the only subscription is the one created above.
    expect(await api.mongo.db.collection('subscriptions').countDocuments({})).toBe(1);
  });

  it('says on /readyz when every place in flight stays taken, and ready again once one frees', async () => {
    // Requests held in flight by blocking the key lookup through the injected deps.
    const keys = api.deps.apiKeys;
    const authenticate = keys.authenticate.bind(keys);
    let release!: () => void;
    const opened = new Promise<void>((r) => (release = r));
    let held = 0;
    keys.authenticate = async (k: string) => {
      held++;
      await opened;
      return authenticate(k);
    };
    try {
      const busy = Array.from({ length: bound }, () => fetch(`${api.baseUrl}${v1}/subscriptions`, { headers: { authorization: `Bearer ${key}` } }));
      await waitFor(() => held === bound, 10_000, 20);
      let readiness: Response | undefined;
      await waitFor(async () => (readiness = await fetch(`${api.baseUrl}/readyz`)).status === 503, 10_000, 100);
      expect(await readiness!.json()).toEqual({ status: 'unavailable', checks: { mongodb: 'up', temporal: 'up', admission: 'saturated' } });
      release();
      for (const res of await Promise.all(busy)) expect(res.status).toBe(200);
      const after = await fetch(`${api.baseUrl}/readyz`);
      expect(after.status).toBe(200);
      expect(await after.json()).toEqual({ status: 'ready', checks: { mongodb: 'up', temporal: 'up', admission: 'open' } });
    } finally {
      release();
      keys.authenticate = authenticate;
    }
  });
});
