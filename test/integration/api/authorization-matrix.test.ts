import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../../generated/api';
import type { Scope } from '../../../src/auth/scopes';
import type { EventDoc } from '../../../src/events/repository';
import { seedDemoData } from '../../../src/seed/seed';
import { startTestApi, type TestApi } from '../../support/api';

type Problem = components['schemas']['Problem'];

const hook = 'http://127.0.0.1:9/hooks';
const v1 = '/api/webhooks/v1';
const everyScope: Scope[] = ['webhooks:read', 'webhooks:write', 'resources:read', 'orders:write'];

/** Who calls: no key, a key of the owner lacking the route's scope, another owner, the owner, an admin key of a third owner. */
type Caller = 'none' | 'wrongScope' | 'otherOwner' | 'owner' | 'admin';

/** The objects one row works on, created fresh by the owner so a row that changes or deletes them affects no other. */
interface Fixture {
  subscriptionId: string;
  eventId: string;
  orderId: number;
}

interface Row {
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: (f: Fixture) => string;
  body?: unknown;
  scope: Scope;
  /** What the owner gets. */
  ok: number;
  /** What another owner gets: 404 for the owner's objects; the same as the owner for shared data. */
  otherOwner: number;
  /** What an admin key of a third owner gets: every order, but subscriptions stay private. */
  admin: number;
  /** For listings another owner reads: the owner's object must not be in it. */
  hides?: (f: Fixture) => string | number;
}

const rows: Row[] = [
  { name: 'subscribe (alias)', method: 'POST', path: () => '/api/webhooks/subscribe', body: { url: hook, events: ['webhook.test'] }, scope: 'webhooks:write', ok: 201, otherOwner: 201, admin: 201 },
  { name: 'subscribe v1', method: 'POST', path: () => `${v1}/subscribe`, body: { url: hook, events: ['order.created'] }, scope: 'webhooks:write', ok: 201, otherOwner: 201, admin: 201 },
  { name: 'subscribe v2', method: 'POST', path: () => '/api/webhooks/v2/subscribe', body: { url: hook, events: ['order.updated'] }, scope: 'webhooks:write', ok: 201, otherOwner: 201, admin: 201 },
  { name: 'list subscriptions', method: 'GET', path: () => `${v1}/subscriptions`, scope: 'webhooks:read', ok: 200, otherOwner: 200, admin: 200, hides: (f) => f.subscriptionId },
  { name: 'get subscription', method: 'GET', path: (f) => `${v1}/subscriptions/${f.subscriptionId}`, scope: 'webhooks:read', ok: 200, otherOwner: 404, admin: 404 },
  { name: 'change subscription', method: 'PATCH', path: (f) => `${v1}/subscriptions/${f.subscriptionId}`, body: { description: 'changed' }, scope: 'webhooks:write', ok: 200, otherOwner: 404, admin: 404 },
  { name: 'delete subscription', method: 'DELETE', path: (f) => `${v1}/subscriptions/${f.subscriptionId}`, scope: 'webhooks:write', ok: 204, otherOwner: 404, admin: 404 },
  { name: 'rotate secret', method: 'POST', path: (f) => `${v1}/subscriptions/${f.subscriptionId}/rotate-secret`, body: {}, scope: 'webhooks:write', ok: 200, otherOwner: 404, admin: 404 },
  { name: 'send test event', method: 'POST', path: (f) => `${v1}/subscriptions/${f.subscriptionId}/test`, scope: 'webhooks:write', ok: 202, otherOwner: 404, admin: 404 },
  { name: 'list attempts', method: 'GET', path: (f) => `${v1}/subscriptions/${f.subscriptionId}/attempts`, scope: 'webhooks:read', ok: 200, otherOwner: 404, admin: 404 },
  { name: "a subscription's events", method: 'GET', path: (f) => `${v1}/subscriptions/${f.subscriptionId}/events`, scope: 'webhooks:read', ok: 200, otherOwner: 404, admin: 404 },
  { name: 'delivery stats', method: 'GET', path: (f) => `${v1}/subscriptions/${f.subscriptionId}/stats`, scope: 'webhooks:read', ok: 200, otherOwner: 404, admin: 404 },
  { name: 'end portal sessions', method: 'POST', path: () => `${v1}/portal-sessions/expire-all`, body: {}, scope: 'webhooks:write', ok: 200, otherOwner: 200, admin: 200 },
  { name: 'open portal session', method: 'POST', path: () => `${v1}/portal-sessions`, body: {}, scope: 'webhooks:write', ok: 201, otherOwner: 201, admin: 201 },
  { name: 'recover', method: 'POST', path: (f) => `${v1}/subscriptions/${f.subscriptionId}/recover`, body: { since: '2020-01-01T00:00:00Z' }, scope: 'webhooks:write', ok: 202, otherOwner: 404, admin: 404 },
  { name: 'redeliver', method: 'POST', path: (f) => `${v1}/events/${f.eventId}/redeliver`, body: {}, scope: 'webhooks:write', ok: 202, otherOwner: 404, admin: 404 },
  { name: 'event types', method: 'GET', path: () => `${v1}/event-types`, scope: 'webhooks:read', ok: 200, otherOwner: 200, admin: 200 },
  { name: 'get user', method: 'GET', path: () => '/api/users/1', scope: 'resources:read', ok: 200, otherOwner: 200, admin: 200 },
  { name: "list a user's orders", method: 'GET', path: () => '/api/users/1/orders?limit=100', scope: 'resources:read', ok: 200, otherOwner: 200, admin: 200, hides: (f) => f.orderId },
  { name: 'list products', method: 'GET', path: () => '/api/catalog/products', scope: 'resources:read', ok: 200, otherOwner: 200, admin: 200 },
  { name: 'create order', method: 'POST', path: () => '/api/orders/', body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] }, scope: 'orders:write', ok: 201, otherOwner: 201, admin: 201 },
  { name: 'get order', method: 'GET', path: (f) => `/api/orders/${f.orderId}`, scope: 'resources:read', ok: 200, otherOwner: 404, admin: 200 },
  { name: 'change order', method: 'PATCH', path: (f) => `/api/orders/${f.orderId}`, body: { status: 'paid' }, scope: 'orders:write', ok: 200, otherOwner: 404, admin: 200 },
  { name: 'stock', method: 'GET', path: () => '/api/inventory/stock', scope: 'resources:read', ok: 200, otherOwner: 200, admin: 200 },
  { name: "a product's stock", method: 'GET', path: () => '/api/inventory/stock/3', scope: 'resources:read', ok: 200, otherOwner: 200, admin: 200 },
  // Admin only: the owner, with every other scope, is refused like anyone else.
  { name: 'adjust stock', method: 'PATCH', path: () => '/api/inventory/stock/3', body: { delta: 1 }, scope: 'admin', ok: 403, otherOwner: 403, admin: 200 },
];

describe('authorization matrix: every route × (no key, wrong scope, other owner, owner, admin)', () => {
  let api: TestApi;
  const keys = {} as Record<Exclude<Caller, 'none' | 'wrongScope'>, string>;
  /** For each scope, a key of the owner holding every other (non-admin) scope. */
  const without = {} as Record<Scope, string>;

  beforeAll(async () => {
    api = await startTestApi();
    // Every row orders a unit in its fixture: the demo's few would sell out.
    await seedDemoData(api.mongo.db, { stock: 100_000 });
    keys.owner = (await api.clientWith(everyScope, 'owner-a')).key;
    keys.otherOwner = (await api.clientWith(everyScope, 'owner-b')).key;
    keys.admin = (await api.clientWith(['admin'], 'ops')).key;
    for (const scope of [...everyScope, 'admin'] as Scope[]) without[scope] = (await api.clientWith(everyScope.filter((s) => s !== scope), 'owner-a')).key;
  });
  afterAll(async () => {
    await api.close();
  });

  async function call(method: string, path: string, key: string | undefined, body?: unknown): Promise<{ status: number; type: string | null; body: unknown }> {
    const res = await fetch(`${api.baseUrl}${path}`, {
      method,
      headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, type: res.headers.get('content-type'), body: text ? (JSON.parse(text) as unknown) : undefined };
  }

  /** The ids of a listing's items. */
  const idsIn = (body: unknown): Array<string | number> => (body as { data: Array<{ id: string | number }> }).data.map((item) => item.id);

  /** Fresh objects of the owner: a subscription with one test event, and a pending order. */
  async function fixture(): Promise<Fixture> {
    const sub = await call('POST', `${v1}/subscribe`, keys.owner, { url: hook, events: ['order.created'] });
    const subscriptionId = (sub.body as { id: string }).id;
    const sent = await call('POST', `${v1}/subscriptions/${subscriptionId}/test`, keys.owner);
    const order = await call('POST', '/api/orders/', keys.owner, { user_id: 1, items: [{ product_id: 1, quantity: 1 }] });
    expect([sub.status, sent.status, order.status]).toEqual([201, 202, 201]);
    return { subscriptionId, eventId: (sent.body as { event_id: string }).event_id, orderId: (order.body as { id: number }).id };
  }

  /** What a refused call left: the owner's subscription and order exactly as before. */
  async function stateOf(f: Fixture): Promise<unknown> {
    const [sub, order] = await Promise.all([
      api.mongo.db.collection('subscriptions').findOne({ _id: f.subscriptionId as never }),
      api.mongo.db.collection('orders').findOne({ id: f.orderId }),
    ]);
    return { sub, order };
  }

  it.each(rows)('$method $name', async (row) => {
    const f = await fixture();
    const path = row.path(f);
    const before = await stateOf(f);
    const label = (caller: Caller) => `${caller}: ${row.method} ${path}`;

    const none = await call(row.method, path, undefined, row.body);
    expect(none.status, label('none')).toBe(401);

    const wrong = await call(row.method, path, without[row.scope], row.body);
    expect(wrong.status, label('wrongScope')).toBe(403);
    expect((wrong.body as Problem).detail, label('wrongScope')).toContain(row.scope);

    const other = await call(row.method, path, keys.otherOwner, row.body);
    expect(other.status, label('otherOwner')).toBe(row.otherOwner);
    if (row.otherOwner === 404) {
      expect(other.type).toContain('application/problem+json');
      // Indistinguishable from an object that does not exist.
      expect((other.body as Problem).detail).toMatch(/^No (subscription|order|event) /);
    }
    if (row.hides) expect(idsIn(other.body), label('otherOwner')).not.toContain(row.hides(f));
    // Refusals changed nothing of the owner's (another owner's own creations are theirs).
    expect(await stateOf(f), 'refused calls wrote nothing').toEqual(before);

    const admin = await call(row.method, path, keys.admin, row.body);
    expect(admin.status, label('admin')).toBe(row.admin);

    const owner = await call(row.method, path, keys.owner, row.body);
    // The admin may already have moved the order to paid; paying again is the same-status no-op.
    expect(owner.status, label('owner')).toBe(row.ok);
    if (row.hides) expect(idsIn(owner.body), label('owner')).toContain(row.hides(f));
  });

  it('alerts: every one for admin, its own for an owner with webhooks:read (owner-scoped in owner-alerts.test.ts)', async () => {
    expect((await call('GET', `${v1}/alerts`, undefined)).status).toBe(401);
    expect((await call('GET', `${v1}/alerts`, keys.owner)).status).toBe(200);
    expect((await call('GET', `${v1}/alerts`, keys.otherOwner)).status).toBe(200);
    expect((await call('GET', `${v1}/alerts`, keys.admin)).status).toBe(200);
  });
});

describe('order events need resources:read', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  const countSubs = () => api.mongo.db.collection('subscriptions').countDocuments();

  it('refuses to subscribe a key without resources:read to order.* with 403 naming each event, writing nothing', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'webhooks:read'], 'writer-only');
    const before = await countSubs();
    for (const path of ['/api/webhooks/subscribe', '/api/webhooks/v1/subscribe', '/api/webhooks/v2/subscribe'] as const) {
      const res = await client.POST(path, { body: { url: hook, events: ['webhook.test', 'order.created', 'order.updated'] } });
      expect(res.response.status, path).toBe(403);
      expect(res.response.headers.get('content-type')).toContain('application/problem+json');
      expect(res.error).toMatchObject({ status: 403, title: 'Forbidden' });
      expect(res.error!.errors).toEqual([
        { path: '/body/events/1', message: 'order.created needs the scope resources:read' },
        { path: '/body/events/2', message: 'order.updated needs the scope resources:read' },
      ]);
    }
    expect(await countSubs()).toBe(before);

    // Event types that carry no resource data need nothing more.
    const test = await client.POST('/api/webhooks/v1/subscribe', { body: { url: hook, events: ['webhook.test'] } });
    expect(test.response.status).toBe(201);

    // Adding an order event later is refused the same way, and the subscription stays as it was.
    const id = test.data!.id;
    const patched = await client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', {
      params: { path: { subscription_id: id } },
      body: { events: ['webhook.test', 'order.updated'], description: 'sneaky' },
    });
    expect(patched.response.status).toBe(403);
    expect(patched.error!.errors).toEqual([{ path: '/body/events/1', message: 'order.updated needs the scope resources:read' }]);
    const read = await client.GET('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: id } } });
    expect(read.data).toMatchObject({ events: ['webhook.test'] });
    expect(read.data).not.toHaveProperty('description');
  });

  it('lets resources:read and admin keys subscribe to order events, and the catalogue says what each type needs', async () => {
    const { client: reader } = await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read'], 'reader');
    expect((await reader.POST('/api/webhooks/v1/subscribe', { body: { url: hook, events: ['order.created'] } })).response.status).toBe(201);
    const { client: admin } = await api.clientWith(['admin'], 'ops');
    expect((await admin.POST('/api/webhooks/v2/subscribe', { body: { url: hook, events: ['order.updated'] } })).response.status).toBe(201);

    const types = await reader.GET('/api/webhooks/v1/event-types');
    expect(Object.fromEntries(types.data!.data.map((t) => [t.name, t.required_scopes]))).toEqual({
      'order.created': ['resources:read'],
      'order.updated': ['resources:read'],
      'webhook.test': [],
      'stock.updated': ['resources:read'],
      'stock.low': ['resources:read'],
    });
  });

  it("delivers an order's events to its owner's subscriptions and admin keys' only", async () => {
    await seedDemoData(api.mongo.db);
    const scopes: Scope[] = ['webhooks:write', 'resources:read', 'orders:write'];
    const { client: acme } = await api.clientWith(scopes, 'acme');
    const { client: globex } = await api.clientWith(scopes, 'globex');
    const { client: ops } = await api.clientWith(['admin'], 'ops');
    const subscribe = async (client: typeof acme) =>
      (await client.POST('/api/webhooks/v1/subscribe', { body: { url: hook, events: ['order.created', 'order.updated'] } })).data!.id;
    const [mine, theirs, operators] = [await subscribe(acme), await subscribe(globex), await subscribe(ops)];

    const order = await acme.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
    expect(order.response.status).toBe(201);
    // An admin changes it: the event still carries acme's data, so it goes where acme's did.
    const paid = await ops.PATCH('/api/orders/{order_id}', { params: { path: { order_id: order.data!.id } }, body: { status: 'paid' } });
    expect(paid.response.status).toBe(200);

    const events = await api.mongo.db.collection<EventDoc>('events').find({ 'data.order_id': order.data!.id }).sort({ created_at: 1 }).toArray();
    expect(events.map((e) => e.type)).toEqual(['order.created', 'order.updated']);
    const adminMade = (await api.mongo.db.collection<{ _id: string }>('subscriptions').find({ all_owners: true }).toArray()).map((sub) => sub._id);
    expect(adminMade).toContain(operators);
    for (const e of events) {
      const targeted = e.subscription_ids;
      // Whose data it is: the worker reads that owner's subscribers of a round together.
      expect(e.data_owner, e.type).toBe('acme');
      expect(targeted, e.type).toContain(mine);
      expect(targeted, e.type).toContain(operators);
      expect(targeted, e.type).not.toContain(theirs);
      // Nothing of any other owner's either: only acme's own and admin keys' subscriptions.
      expect(targeted.filter((id) => id !== mine && !adminMade.includes(id)), e.type as string).toEqual([]);
    }
  });
});
