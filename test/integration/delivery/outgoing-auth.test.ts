import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttemptDoc } from '../../../src/deliveries/attempts';
import { verify } from '../../../src/receiver';
import { seedDemoData } from '../../../src/seed/seed';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';

const key = `k1:${randomBytes(32).toString('base64')}`;
const v1 = '/api/webhooks/v1';

/** A real OAuth 2.0 token endpoint on loopback: issues tok-1, tok-2, … to one client, or fails as told. */
interface TokenServer {
  url: string;
  requests: Array<{ authorization: string | undefined; contentType: string | undefined; form: URLSearchParams }>;
  issued: string[];
  /** How the next answers go: a status and body, or the normal token answer. */
  failWith: { status: number; body: string } | undefined;
  close(): Promise<void>;
}

async function startTokenServer(clientId: string, clientSecret: string): Promise<TokenServer> {
  const state: Omit<TokenServer, 'url' | 'close'> = { requests: [], issued: [], failWith: undefined };
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      state.requests.push({ authorization: req.headers.authorization, contentType: req.headers['content-type'], form });
      if (state.failWith) {
        res.writeHead(state.failWith.status, { 'Content-Type': 'application/json' }).end(state.failWith.body);
        return;
      }
      const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
      if (req.headers.authorization !== expected || form.get('grant_type') !== 'client_credentials') {
        res.writeHead(401, { 'Content-Type': 'application/json' }).end('{"error":"invalid_client"}');
        return;
      }
      const token = `tok-${state.issued.length + 1}-${randomBytes(4).toString('hex')}`;
      state.issued.push(token);
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 3600 }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return Object.assign(state, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth2/token`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  });
}

describe('outgoing auth: bearer, basic and OAuth 2.0 client credentials towards the receiver', () => {
  let api: TestApi;
  let worker: TestWorker;
  let receiver: TestReceiver;
  let tokens: TokenServer;
  /** The receiver accepts the endpoint's tokens from this one on (earlier ones are revoked: 401). */
  let revokedBefore = 0;
  const clientSecret = 'cs_live_never_shown_7f3a';

  beforeAll(async () => {
    api = await startTestApi({ SECRET_ENCRYPTION_KEY: key });
    await seedDemoData(api.mongo.db);
    worker = await startTestWorker(api);
    tokens = await startTokenServer('webhooks-acme', clientSecret);
    receiver = await startReceiver((req, res) => {
      const auth = req.headers.authorization;
      if (auth?.startsWith('Bearer tok-') && tokens.issued.indexOf(auth.slice('Bearer '.length)) < revokedBefore) res.writeHead(401).end('token expired');
      else res.writeHead(200).end();
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
    await tokens?.close();
    await api?.close();
  });

  const raw = async (id: string) => JSON.stringify(await api.mongo.db.collection('subscriptions').findOne({ _id: id as never }));
  const attempts = (id: string) => api.mongo.db.collection<AttemptDoc>('attempts').find({ subscription_id: id }).sort({ started_at: 1 }).toArray();
  const deliveriesTo = (id: string) => receiver.received.filter((r) => r.url === `/hooks/${id}`);

  async function setup() {
    const { client } = await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read', 'orders:write'], `owner-${randomBytes(4).toString('hex')}`);
    const order = async () => expect((await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } })).response.status).toBe(201);
    return { client, order };
  }

  it('bearer and basic set Authorization; PATCH replaces, null removes; credentials sealed and never returned', async () => {
    const { client, order } = await setup();
    const token = 'rcv_live_bearer_value_91';
    const created = await client.POST(`${v1}/subscribe`, { body: { url: `${receiver.url}/pending`, events: ['order.created'], auth: { type: 'bearer', token } } });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    const { id, secret } = created.data!;
    // The receiver path names the subscription, so deliveries can be told apart; a new url takes auth only if sent again.
    await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { params: { path: { subscription_id: id } }, body: { url: `${receiver.url}/${id}`, auth: { type: 'bearer', token } } });
    expect(created.data!.auth).toEqual({ type: 'bearer' });
    const got = await client.GET(`${v1}/subscriptions/{subscription_id}`, { params: { path: { subscription_id: id } } });
    expect(got.data!.auth).toEqual({ type: 'bearer' });
    expect(JSON.stringify(got.data)).not.toContain(token);
    expect(await raw(id)).not.toContain(token);

    await order();
    await waitFor(() => deliveriesTo(id).length === 1, 20_000);
    expect(deliveriesTo(id)[0]!.headers.authorization).toBe(`Bearer ${token}`);
    expect(verify(deliveriesTo(id)[0]!.body, deliveriesTo(id)[0]!.headers, secret)).toMatchObject({ event: 'order.created' });

    const basic = await client.PATCH(`${v1}/subscriptions/{subscription_id}`, {
      params: { path: { subscription_id: id } },
      body: { auth: { type: 'basic', username: 'hook-user', password: 'pw_never_shown:42' } },
    });
    expect(basic.response.status, JSON.stringify(basic.error)).toBe(200);
    expect(basic.data!.auth).toEqual({ type: 'basic' });
    const stored = await raw(id);
    for (const s of ['hook-user', 'pw_never_shown', token]) expect(stored).not.toContain(s);
    await order();
    await waitFor(() => deliveriesTo(id).length === 2, 20_000);
    expect(deliveriesTo(id)[1]!.headers.authorization).toBe(`Basic ${Buffer.from('hook-user:pw_never_shown:42').toString('base64')}`);

    const removed = await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { params: { path: { subscription_id: id } }, body: { auth: null } });
    expect(removed.response.status, JSON.stringify(removed.error)).toBe(200);
    expect(removed.data!.auth).toBeUndefined();
    expect(await raw(id)).not.toContain('"auth"');
    await order();
    await waitFor(() => deliveriesTo(id).length === 3, 20_000);
    expect(deliveriesTo(id)[2]!.headers.authorization).toBeUndefined();
  });

  it('oauth2: fetches a token once, reuses it, refreshes once on a 401 and sends that attempt again', async () => {
    const { client, order } = await setup();
    const created = await client.POST(`${v1}/subscribe`, {
      body: { url: `${receiver.url}/pending`, events: ['order.created'], auth: { type: 'oauth2_client_credentials', token_url: tokens.url, client_id: 'webhooks-acme', client_secret: clientSecret, scope: 'webhooks.write' } },
    });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    const { id } = created.data!;
    const auth = { type: 'oauth2_client_credentials' as const, token_url: tokens.url, client_id: 'webhooks-acme', client_secret: clientSecret, scope: 'webhooks.write' };
    await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { params: { path: { subscription_id: id } }, body: { url: `${receiver.url}/${id}`, auth } });
    const view = (await client.GET(`${v1}/subscriptions/{subscription_id}`, { params: { path: { subscription_id: id } } })).data!.auth;
    expect(view).toEqual({ type: 'oauth2_client_credentials', token_url: tokens.url, client_id: 'webhooks-acme', scope: 'webhooks.write' });
    expect(await raw(id)).not.toContain(clientSecret);

    // The endpoint issues tok-1; the receiver accepts it.
    tokens.issued.length = 0;
    tokens.requests.length = 0;
    await order();
    await waitFor(() => deliveriesTo(id).length === 1, 20_000);
    await order();
    await waitFor(() => deliveriesTo(id).length === 2, 20_000);
    expect(tokens.requests).toHaveLength(1);
    expect(tokens.requests[0]!.contentType).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(tokens.requests[0]!.form)).toEqual({ grant_type: 'client_credentials', scope: 'webhooks.write' });
    expect(deliveriesTo(id).map((d) => d.headers.authorization)).toEqual([`Bearer ${tokens.issued[0]}`, `Bearer ${tokens.issued[0]}`]);

    // The receiver revokes tok-1: the next attempt gets a 401, a new token, and is sent once more.
    revokedBefore = 1;
    await order();
    await waitFor(() => deliveriesTo(id).length === 4, 20_000);
    expect(tokens.requests).toHaveLength(2);
    expect(deliveriesTo(id).slice(2).map((d) => d.headers.authorization)).toEqual([`Bearer ${tokens.issued[0]}`, `Bearer ${tokens.issued[1]}`]);
    await waitFor(async () => (await attempts(id)).length === 3, 20_000);
    const logged = await attempts(id);
    // Three events, three attempts, all delivered: the refresh was inside the third.
    expect(logged.map((a) => [a.outcome, a.status_code])).toEqual([
      ['delivered', 200],
      ['delivered', 200],
      ['delivered', 200],
    ]);
  });

  it("a token endpoint's failure is the attempt's error, retried; no credential in the attempt log", async () => {
    const { client, order } = await setup();
    tokens.failWith = { status: 503, body: '{"error":"temporarily_unavailable","error_description":"echo cs_live_never_shown_7f3a"}' };
    try {
      const created = await client.POST(`${v1}/subscribe`, {
        body: { url: `${receiver.url}/pending`, events: ['order.created'], auth: { type: 'oauth2_client_credentials', token_url: tokens.url, client_id: 'webhooks-acme', client_secret: clientSecret } },
      });
      const { id } = created.data!;
      const auth = { type: 'oauth2_client_credentials' as const, token_url: tokens.url, client_id: 'webhooks-acme', client_secret: clientSecret };
      await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { params: { path: { subscription_id: id } }, body: { url: `${receiver.url}/${id}`, auth } });
      await order();
      await waitFor(async () => (await attempts(id)).length >= 1, 20_000);
      const [first] = await attempts(id);
      expect(first).toMatchObject({ outcome: 'network_error', state: 'retrying' });
      expect(first!.error).toContain(`oauth2 token endpoint ${tokens.url} answered HTTP 503 (temporarily_unavailable)`);
      const listed = await client.GET(`${v1}/subscriptions/{subscription_id}/attempts`, { params: { path: { subscription_id: id } } });
      expect(JSON.stringify(listed.data)).not.toContain(clientSecret);
      expect(deliveriesTo(id)).toHaveLength(0);
    } finally {
      tokens.failWith = undefined;
    }
  });

  it('refuses a bad token URL and a custom Authorization header beside auth with a 422, writing nothing', async () => {
    const { client } = await setup();
    const base = { url: `${receiver.url}/x`, events: ['order.created' as const] };
    const withCredentials = await client.POST(`${v1}/subscribe`, {
      body: { ...base, auth: { type: 'oauth2_client_credentials', token_url: 'https://user:pw@auth.example.com/token', client_id: 'c', client_secret: 's' } },
    });
    expect(withCredentials.response.status).toBe(422);
    expect(JSON.stringify(withCredentials.error)).toContain('/body/auth/token_url');
    const clash = await client.POST(`${v1}/subscribe`, { body: { ...base, headers: { authorization: 'Bearer x' }, auth: { type: 'bearer', token: 't' } } });
    expect(clash.response.status).toBe(422);
    expect(JSON.stringify(clash.error)).toContain('/body/headers/authorization');
    const unknownType = await client.POST(`${v1}/subscribe`, { body: { ...base, auth: { type: 'digest', token: 't' } as never } });
    expect(unknownType.response.status).toBe(400);
    expect(JSON.stringify(unknownType.error)).toContain('/body/auth');
    const missing = await client.POST(`${v1}/subscribe`, { body: { ...base, auth: { type: 'basic', username: 'u' } as never } });
    expect(missing.response.status).toBe(400);
    expect(JSON.stringify(missing.error)).toContain('/body/auth');

    // PATCH: auth beside a stored Authorization header, and the header beside stored auth.
    const withHeader = await client.POST(`${v1}/subscribe`, { body: { ...base, headers: { Authorization: 'Bearer mine' } } });
    expect(withHeader.response.status).toBe(201);
    const hid = withHeader.data!.id;
    const before = await raw(hid);
    const patched = await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { params: { path: { subscription_id: hid } }, body: { auth: { type: 'bearer', token: 't' } } });
    expect(patched.response.status).toBe(422);
    expect(JSON.stringify(patched.error)).toContain('/body/auth');
    expect(await raw(hid)).toBe(before);
    const withAuth = await client.POST(`${v1}/subscribe`, { body: { ...base, auth: { type: 'bearer', token: 't' } } });
    const aid = withAuth.data!.id;
    const beforeAuth = await raw(aid);
    const header = await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { params: { path: { subscription_id: aid } }, body: { headers: { AUTHORIZATION: 'x' } } });
    expect(header.response.status).toBe(422);
    expect(JSON.stringify(header.error)).toContain('/body/headers/AUTHORIZATION');
    expect(await raw(aid)).toBe(beforeAuth);
    // Both in one PATCH: the header goes with the auth removed.
    const swap = await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { params: { path: { subscription_id: aid } }, body: { auth: null, headers: { Authorization: 'Bearer mine' } } });
    expect(swap.response.status, JSON.stringify(swap.error)).toBe(200);
    expect(swap.data!.auth).toBeUndefined();
  });
});
