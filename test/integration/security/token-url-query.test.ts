import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealStoredCredentials } from '../../../src/subscriptions/seal-credentials';
import type { SubscriptionDoc } from '../../../src/subscriptions/repository';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';

const v1 = '/api/webhooks/v1';
const queryCredential = 'tq_secret_in_the_query_31';

describe("security: an OAuth 2.0 token URL's query is sealed and masked like the other credentials", () => {
  let api: TestApi;
  let worker: TestWorker;
  /** The token endpoint (`/oauth2/token`) and the receiver (`/hooks/...`) in one. */
  let server: TestReceiver;
  let key: string;

  beforeAll(async () => {
    api = await startTestApi({ SECRET_ENCRYPTION_KEY: `k1:${randomBytes(32).toString('base64')}` });
    worker = await startTestWorker(api);
    server = await startReceiver((req, res) => {
      if (req.url.startsWith('/oauth2/token')) res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ access_token: 'tok-from-endpoint', token_type: 'Bearer', expires_in: 3600 }));
      else res.writeHead(200).end();
    });
    key = (await api.clientWith(['webhooks:read', 'webhooks:write'], 'owner-oauth')).key;
  });
  afterAll(async () => {
    await worker?.stop();
    await server?.close();
    await api?.close();
  });

  const tokenUrl = () => `http://127.0.0.1:${server.port}/oauth2/token?tenant=acme&api_key=${queryCredential}`;
  const masked = () => `http://127.0.0.1:${server.port}/oauth2/token?********`;
  const raw = async (id: string) => JSON.stringify(await api.mongo.db.collection('subscriptions').findOne({ _id: id as never }));

  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${api.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it('stores no part of the query in clear, shows it masked, and still asks the endpoint with it', async () => {
    const auth = { type: 'oauth2_client_credentials', token_url: tokenUrl(), client_id: 'webhooks-acme', client_secret: 'cs_secret_value_31' };
    const created = await call('POST', `${v1}/subscribe`, { url: `${server.url}/sealed`, events: ['webhook.test'], auth });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(created.body.auth).toEqual({ type: 'oauth2_client_credentials', token_url: masked(), client_id: 'webhooks-acme' });
    expect((await call('GET', `${v1}/subscriptions/${id}`)).body.auth).toMatchObject({ token_url: masked() });
    expect(await raw(id)).not.toContain(queryCredential);

    expect((await call('POST', `${v1}/subscriptions/${id}/test`)).status).toBe(202);
    await waitFor(() => server.received.some((r) => r.url === '/hooks/sealed'), 20_000);
    expect(server.received.filter((r) => r.url.startsWith('/oauth2/token')).map((r) => r.url)).toEqual([`/oauth2/token?tenant=acme&api_key=${queryCredential}`]);
    expect(server.received.find((r) => r.url === '/hooks/sealed')?.headers.authorization).toBe('Bearer tok-from-endpoint');
  });

  it('seals a token URL stored in clear by an older version at start, and masks it on read meanwhile', async () => {
    const id = 'sub_legacytokenurl000000001';
    const now = new Date();
    const doc: SubscriptionDoc = {
      _id: id,
      owner_id: 'owner-oauth',
      url: `${server.url}/legacy`,
      events: ['webhook.test'],
      status: 'active',
      version: 1,
      secrets: [{ secret: api.deps.subscriptions.secrets.seal('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', id), created_at: now }],
      auth: { type: 'oauth2_client_credentials', token_url: tokenUrl(), client_id: 'webhooks-acme', client_secret: api.deps.subscriptions.secrets.seal('cs_legacy', id) },
      created_at: now,
      updated_at: now,
    };
    await api.mongo.db.collection<SubscriptionDoc>('subscriptions').insertOne(doc);
    expect((await call('GET', `${v1}/subscriptions/${id}`)).body.auth).toMatchObject({ token_url: masked() });

    expect(await sealStoredCredentials(api.deps.subscriptions.subscriptions, api.deps.subscriptions.secrets)).toBe(1);
    expect(await raw(id)).not.toContain(queryCredential);
    expect((await call('GET', `${v1}/subscriptions/${id}`)).body.auth).toMatchObject({ token_url: masked() });
  });
});
