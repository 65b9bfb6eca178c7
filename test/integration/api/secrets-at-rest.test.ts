import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verify } from '../../../src/receiver';
import { seedDemoData } from '../../../src/seed/seed';
import type { SubscriptionDoc } from '../../../src/subscriptions/repository';
import { openDestination } from '../../../src/subscriptions/destination';
import { sealStoredCredentials } from '../../../src/subscriptions/seal-credentials';
import { sealStoredSecrets } from '../../../src/subscriptions/seal-secrets';
import { parseSecretKey, SecretBox, type SecretKey } from '../../../src/subscriptions/secret-box';
import { generateSigningSecret } from '../../../src/subscriptions/secrets';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';

const oldKey = `k1:${randomBytes(32).toString('base64')}`;
const newKey = `k2:${randomBytes(32).toString('base64')}`;

describe('signing secrets at rest: sealed with AES-256-GCM, rotated keys, existing secrets migrated', () => {
  let api: TestApi;
  let worker: TestWorker;
  let receiver: TestReceiver;

  beforeAll(async () => {
    api = await startTestApi({ SECRET_ENCRYPTION_KEY: newKey, SECRET_ENCRYPTION_KEYS: oldKey });
    await seedDemoData(api.mongo.db);
    worker = await startTestWorker(api);
    receiver = await startReceiver((_req, res) => res.writeHead(200).end());
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
    await api?.close();
  });

  const raw = async (id: string) => JSON.stringify(await api.mongo.db.collection('subscriptions').findOne({ _id: id as never }));
  /** What a secret looks like in any encoding a careless store could use. */
  const traces = (secret: string) => [secret, secret.slice(6), Buffer.from(secret.slice(6), 'base64').toString('hex')];

  it('stores no secret the API handed out, before or after a rotation, and deliveries verify with them', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'resources:read', 'webhooks:read', 'orders:write']);
    const sub = await client.POST('/api/webhooks/v1/subscribe', { body: { url: receiver.url, events: ['order.created'] } });
    expect(sub.response.status).toBe(201);
    const { id, secret } = sub.data!;
    const rotated = await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/rotate-secret', { params: { path: { subscription_id: id } } });
    expect(rotated.response.status).toBe(200);

    const stored = await raw(id);
    for (const s of [secret, rotated.data!.secret]) for (const t of traces(s)) expect(stored).not.toContain(t);
    expect(stored.match(/enc:v1:k2:/g)).toHaveLength(2);

    const order = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
    expect(order.response.status).toBe(201);
    await waitFor(() => receiver.received.length === 1, 20_000);
    const got = receiver.received[0]!;
    // Both the new secret and the previous one (still in its overlap) sign the delivery.
    expect(verify(got.body, got.headers, rotated.data!.secret)).toMatchObject({ event: 'order.created' });
    expect(verify(got.body, got.headers, secret)).toMatchObject({ event: 'order.created' });
    await client.DELETE('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: id } } });
  });

  it('seals secrets stored in plaintext or under the old key, and deliveries still verify with them', async () => {
    const subscriptions = api.deps.subscriptions.subscriptions;
    const plain = generateSigningSecret();
    const underOld = generateSigningSecret();
    const k1 = parseSecretKey(oldKey) as SecretKey;
    const now = new Date();
    const doc = (id: string, stored: string) => ({
      _id: id,
      // The owner of the key that orders below: an order's events reach its owner's subscriptions.
      owner_id: 'owner-a',
      url: receiver.url,
      events: ['order.created' as const],
      status: 'active' as const,
      version: 1 as const,
      secrets: [{ secret: stored, created_at: now }],
      created_at: now,
      updated_at: now,
    });
    await api.mongo.db.collection<SubscriptionDoc>('subscriptions').insertMany([doc('sub_legacyplain0000000001', plain), doc('sub_legacyoldkey000000001', new SecretBox(k1).seal(underOld, 'sub_legacyoldkey000000001'))]);

    expect(await sealStoredSecrets(subscriptions, api.deps.subscriptions.secrets)).toBe(2);
    expect(await sealStoredSecrets(subscriptions, api.deps.subscriptions.secrets)).toBe(0);
    const plainDoc = await raw('sub_legacyplain0000000001');
    const oldDoc = await raw('sub_legacyoldkey000000001');
    for (const t of traces(plain)) expect(plainDoc).not.toContain(t);
    expect([plainDoc, oldDoc].every((d) => d.includes('enc:v1:k2:') && !d.includes('enc:v1:k1:'))).toBe(true);

    receiver.received.length = 0;
    const { client } = await api.clientWith(['orders:write']);
    expect((await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 2, quantity: 1 }] } })).response.status).toBe(201);
    await waitFor(() => receiver.received.length === 2, 20_000);
    const bySecret = (s: string) => receiver.received.filter((r) => {
      try {
        return Boolean(verify(r.body, r.headers, s));
      } catch {
        return false;
      }
    });
    expect([bySecret(plain).length, bySecret(underOld).length]).toEqual([1, 1]);
  });

  it('seals custom header values and auth credentials stored in plaintext or under the old key; deliveries still carry them', async () => {
    const subscriptions = api.deps.subscriptions.subscriptions;
    const k1 = new SecretBox(parseSecretKey(oldKey) as SecretKey);
    const now = new Date();
    const id = (n: number) => `sub_legacycreds00000000${n}`;
    const base = (n: number) => ({
      _id: id(n),
      owner_id: 'owner-creds',
      url: `${receiver.url}/creds-${n}`,
      events: ['order.created' as const],
      status: 'active' as const,
      version: 1 as const,
      secrets: [{ secret: k1.seal(generateSigningSecret(), id(n)), created_at: now }],
      created_at: now,
      updated_at: now,
    });
    await api.mongo.db.collection<SubscriptionDoc>('subscriptions').insertMany([
      { ...base(1), headers: [{ name: 'X-Api-Key', value: 'plain-header-value' }], auth: { type: 'bearer', token: k1.seal('old-key-bearer', id(1)) } },
      { ...base(2), auth: { type: 'basic', username: 'plain-user', password: k1.seal('old-key-password', id(2)) } },
      // Another owner's, so the order below does not reach the broker it names.
      {
        ...base(3),
        owner_id: 'owner-creds-broker',
        url: 'amqp://127.0.0.1:5672',
        destination: { type: 'rabbitmq', exchange: 'x', routing_key: 'k', credentials: k1.seal(JSON.stringify({ username: 'u', password: 'old-key-broker' }), id(3)) },
      },
      {
        ...base(4),
        owner_id: 'owner-creds-broker',
        url: 'kafka://127.0.0.1:9092',
        destination: { type: 'kafka', topic: 't', sasl_mechanism: 'plain', credentials: k1.seal(JSON.stringify({ username: 'ku', password: 'old-key-kafka' }), id(4)) },
      },
      // Without SASL: nothing to seal.
      { ...base(5), owner_id: 'owner-creds-broker', url: 'kafka://127.0.0.1:9092', destination: { type: 'kafka', topic: 't' } },
    ]);
    await sealStoredSecrets(subscriptions, api.deps.subscriptions.secrets);
    expect(await sealStoredCredentials(subscriptions, api.deps.subscriptions.secrets)).toBe(4);
    expect(await sealStoredCredentials(subscriptions, api.deps.subscriptions.secrets)).toBe(0);
    const docs = [await raw(id(1)), await raw(id(2)), await raw(id(3))];
    for (const d of docs) {
      for (const plain of ['plain-header-value', 'old-key-bearer', 'plain-user', 'old-key-password']) expect(d).not.toContain(plain);
      expect(d).not.toContain('enc:v1:k1:');
    }
    expect(docs[0]!.match(/enc:v1:k2:/g)).toHaveLength(3);
    expect(docs[1]!.match(/enc:v1:k2:/g)).toHaveLength(3);
    expect(docs[2]!.match(/enc:v1:k2:/g)).toHaveLength(2);
    const broker = await api.mongo.db.collection<SubscriptionDoc>('subscriptions').findOne({ _id: id(3) });
    expect(openDestination(api.deps.subscriptions.secrets, id(3), broker!.destination!)).toMatchObject({ username: 'u', password: 'old-key-broker' });
    const kafka = await api.mongo.db.collection<SubscriptionDoc>('subscriptions').findOne({ _id: id(4) });
    expect(JSON.stringify(kafka)).toMatch(/enc:v1:k2:/);
    expect(openDestination(api.deps.subscriptions.secrets, id(4), kafka!.destination!)).toMatchObject({ sasl: { mechanism: 'plain', username: 'ku', password: 'old-key-kafka' } });

    receiver.received.length = 0;
    const { client } = await api.clientWith(['orders:write', 'resources:read'], 'owner-creds');
    expect((await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 2, quantity: 1 }] } })).response.status).toBe(201);
    await waitFor(() => receiver.received.length === 2, 20_000);
    const to = (n: number) => receiver.received.find((r) => r.url === `/hooks/creds-${n}`)!;
    expect(to(1).headers['x-api-key']).toBe('plain-header-value');
    expect(to(1).headers.authorization).toBe('Bearer old-key-bearer');
    expect(to(2).headers.authorization).toBe(`Basic ${Buffer.from('plain-user:old-key-password').toString('base64')}`);
  });
});
