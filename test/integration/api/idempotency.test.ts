import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../../../src/seed/seed';
import { startTestApi, type TestApi } from '../../support/api';
import { redeliveryRuns, terminateLeftRunning } from '../../support/event-workflows';

// No worker: what matters is what each request wrote, and the workflows it started.
describe('Idempotency-Key: a retried POST runs once', () => {
  let api: TestApi;
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    api = await startTestApi({ SECRET_ENCRYPTION_KEY: `k1:${randomBytes(32).toString('base64')}` });
    // Idempotency, not stock, is the matter here: no repeat may fail for want of units.
    await seedDemoData(api.mongo.db, { stock: 100_000 });
    key = (await api.clientWith(['orders:write', 'webhooks:write', 'resources:read', 'webhooks:read'], 'owner-idem-a')).key;
    otherKey = (await api.clientWith(['orders:write', 'webhooks:write', 'resources:read', 'webhooks:read'], 'owner-idem-b')).key;
    // Events are logged only for their subscribers: one of both types, so a repeat that wrote an event again would show.
    const sub = await post('/api/webhooks/v1/subscribe', { url: 'http://127.0.0.1:9/idempotency', events: ['order.created', 'stock.updated'] });
    expect(sub.status).toBe(201);
  });
  afterAll(async () => {
    await terminateLeftRunning(await api.temporal.client(), api.config.temporal.taskQueue);
    await api.close();
  });

  const post = (path: string, body: unknown, idempotencyKey?: string, apiKey = key) =>
    fetch(`${api.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const order = { user_id: 1, items: [{ product_id: 1, quantity: 2 }] };
  const counts = async () => ({
    orders: await api.mongo.db.collection('orders').countDocuments(),
    events: await api.mongo.db.collection('events').countDocuments(),
    // Through the API, which shows its own moves at once (the stored copy follows within about 50 ms).
    stock: ((await (await fetch(`${api.baseUrl}/api/inventory/stock/1`, { headers: { authorization: `Bearer ${key}` } })).json()) as { quantity: number }).quantity,
  });

  it('replays the first response to a repeat, with Idempotent-Replayed, and writes nothing again', async () => {
    const k = randomUUID();
    const before = await counts();
    const first = await post('/api/orders/', order, k);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await post('/api/orders/', order, k);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(await again.json()).toEqual(await first.json());
    // One order.created and one stock.updated; its units reserved once.
    expect(await counts()).toEqual({ orders: before.orders + 1, events: before.events + 2, stock: before.stock - 2 });
  });

  it('refuses the same key with a different body (422, naming the header) and writes nothing', async () => {
    const k = randomUUID();
    expect((await post('/api/orders/', order, k)).status).toBe(201);
    const before = await counts();
    const other = await post('/api/orders/', { ...order, items: [{ product_id: 2, quantity: 1 }] }, k);
    expect(other.status).toBe(422);
    expect(other.headers.get('content-type')).toContain('application/problem+json');
    expect(await other.json()).toMatchObject({ status: 422, errors: [{ path: '/header/Idempotency-Key' }] });
    expect(await counts()).toEqual(before);
  });

  it('runs concurrent repeats once: one order, every other answer a replay or a 409 to retry', async () => {
    const k = randomUUID();
    const before = await counts();
    const answers = await Promise.all(Array.from({ length: 6 }, () => post('/api/orders/', order, k)));
    const kinds = answers.map((r) => (r.status === 201 ? (r.headers.get('idempotent-replayed') ? 'replay' : 'ran') : String(r.status)));
    expect(kinds.filter((x) => x === 'ran')).toHaveLength(1);
    expect(kinds.every((x) => ['ran', 'replay', '409'].includes(x))).toBe(true);
    expect(answers.filter((r) => r.status === 409).every((r) => r.headers.get('retry-after') === '1')).toBe(true);
    expect((await counts()).orders).toBe(before.orders + 1);
    // Once the first has finished, a repeat gets its response.
    const later = await post('/api/orders/', order, k);
    expect([later.status, later.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
  });

  it("keeps keys apart per owner: another owner's request with the same key runs", async () => {
    const k = randomUUID();
    const before = await counts();
    expect((await post('/api/orders/', order, k)).status).toBe(201);
    const other = await post('/api/orders/', order, k, otherKey);
    expect([other.status, other.headers.get('idempotent-replayed')]).toEqual([201, null]);
    expect((await counts()).orders).toBe(before.orders + 2);
  });

  it('keeps a client error too, and lets a key run again after 24 hours', async () => {
    const k = randomUUID();
    const unknownUser = await post('/api/orders/', { user_id: 999_999, items: [{ product_id: 1, quantity: 1 }] }, k);
    expect(unknownUser.status).toBe(422);
    const replay = await post('/api/orders/', { user_id: 999_999, items: [{ product_id: 1, quantity: 1 }] }, k);
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([422, 'true']);
    expect(await replay.json()).toMatchObject({ status: 422, title: 'Unprocessable Content' });

    const k2 = randomUUID();
    expect((await post('/api/orders/', order, k2)).status).toBe(201);
    await api.mongo.db.collection('idempotency_keys').updateMany({ state: 'done' }, { $set: { created_at: new Date(Date.now() - 25 * 3600_000) } });
    const before = await counts();
    const rerun = await post('/api/orders/', order, k2);
    expect([rerun.status, rerun.headers.get('idempotent-replayed')]).toEqual([201, null]);
    expect((await counts()).orders).toBe(before.orders + 1);
  });

  it('replays a subscription with its secret without storing the secret readably', async () => {
    const k = randomUUID();
    const body = { url: 'http://127.0.0.1:9/hooks', events: ['webhook.test'] };
    const first = await post('/api/webhooks/v1/subscribe', body, k);
    expect(first.status).toBe(201);
    const created = (await first.json()) as { id: string; secret: string };
    const again = await post('/api/webhooks/v1/subscribe', body, k);
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    expect(await again.json()).toEqual(created);
    expect(await api.mongo.db.collection('subscriptions').countDocuments({ url: body.url, owner_id: 'owner-idem-a' })).toBe(1);
    const records = JSON.stringify(await api.mongo.db.collection('idempotency_keys').find({}).toArray());
    expect(records).not.toContain(created.secret.slice(6));

    // A test event and a redelivery, each repeated: one event, one redelivery workflow.
    const testKey = randomUUID();
    const sent = await post(`/api/webhooks/v1/subscriptions/${created.id}/test`, undefined, testKey);
    const resent = await post(`/api/webhooks/v1/subscriptions/${created.id}/test`, undefined, testKey);
    expect([sent.status, resent.status, resent.headers.get('idempotent-replayed')]).toEqual([202, 202, 'true']);
    const { event_id: eventId } = (await sent.json()) as { event_id: string };
    expect(await resent.json()).toEqual({ event_id: eventId });
    const redeliverKey = randomUUID();
    expect((await post(`/api/webhooks/v1/events/${eventId}/redeliver`, {}, redeliverKey)).status).toBe(202);
    expect((await post(`/api/webhooks/v1/events/${eventId}/redeliver`, {}, redeliverKey)).headers.get('idempotent-replayed')).toBe('true');
    expect(await redeliveryRuns(await api.temporal.client(), eventId, 1)).toHaveLength(1);
    expect(await api.mongo.db.collection('dispatch_notes').countDocuments({ event_id: eventId })).toBeLessThanOrEqual(1);
  });

  it.each([
    ['too long', 'x'.repeat(256)],
    ['a space', 'two words'],
  ])('rejects a key with %s (400 naming the header) and writes nothing', async (_what, bad) => {
    const before = await counts();
    const res = await post('/api/orders/', order, bad);
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('idempotency-key');
    expect(await counts()).toEqual(before);
  });
});
