import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../../generated/api';
import { startTestApi, type TestApi } from '../../support/api';

type Problem = components['schemas']['Problem'];

const v1 = '/api/webhooks/v1';
const hook = 'http://127.0.0.1:9/hooks';
const attacker = 'http://127.0.0.1:9/attacker';
const credentials = { headers: { 'X-Tenant-Key': 'tenant-secret-value' }, auth: { type: 'bearer', token: 'stored-bearer-token' } };

interface Reply {
  status: number;
  type: string | null;
  body: unknown;
}

describe('security: who may change a subscription, and where its credentials go', () => {
  let api: TestApi;
  /** The owner's key that may create order subscriptions. */
  let full: string;
  /** The same owner's key with webhooks:write alone. */
  let writeOnly: string;
  /** The same owner's admin key: what it subscribes gets every owner's events. */
  let admin: string;

  beforeAll(async () => {
    api = await startTestApi();
    full = (await api.clientWith(['webhooks:read', 'webhooks:write', 'resources:read'], 'owner-a')).key;
    writeOnly = (await api.clientWith(['webhooks:read', 'webhooks:write'], 'owner-a')).key;
    admin = (await api.clientWith(['admin'], 'owner-a')).key;
  });
  afterAll(async () => {
    await api.close();
  });

  async function call(method: string, path: string, token: string, body?: unknown): Promise<Reply> {
    const res = await fetch(`${api.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, type: res.headers.get('content-type'), body: text ? (JSON.parse(text) as unknown) : undefined };
  }

  async function subscribe(token: string, events: string[]): Promise<string> {
    const created = await call('POST', `${v1}/subscribe`, token, { url: hook, events, ...credentials });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return (created.body as { id: string }).id;
  }

  const stored = (id: string) => api.mongo.db.collection('subscriptions').findOne({ _id: id as never });

  async function portalToken(key: string): Promise<string> {
    const opened = await call('POST', `${v1}/portal-sessions`, key, {});
    expect(opened.status).toBe(201);
    return (opened.body as { token: string }).token;
  }

  /** Every write a caller could use to redirect or trigger the subscription's deliveries. */
  async function everyWrite(token: string, id: string, eventId: string): Promise<Array<[string, Reply]>> {
    return [
      ['PATCH url', await call('PATCH', `${v1}/subscriptions/${id}`, token, { url: attacker, ...credentials })],
      ['PATCH description', await call('PATCH', `${v1}/subscriptions/${id}`, token, { description: 'mine now' })],
      ['rotate', await call('POST', `${v1}/subscriptions/${id}/rotate-secret`, token, {})],
      ['test', await call('POST', `${v1}/subscriptions/${id}/test`, token)],
      ['recover', await call('POST', `${v1}/subscriptions/${id}/recover`, token, { since: '2020-01-01T00:00:00Z' })],
      ['redeliver', await call('POST', `${v1}/events/${eventId}/redeliver`, token, { subscription_id: id })],
      ['delete', await call('DELETE', `${v1}/subscriptions/${id}`, token)],
    ];
  }

  function expectRefused(replies: Array<[string, Reply]>, naming: string): void {
    for (const [what, reply] of replies) {
      expect(reply.status, what).toBe(403);
      expect(reply.type, what).toContain('application/problem+json');
      expect((reply.body as Problem).detail, what).toContain(naming);
    }
  }

  it('refuses every write by a key with webhooks:write alone on an order subscription, and changes nothing', async () => {
    const id = await subscribe(full, ['order.created']);
    const sent = await call('POST', `${v1}/subscriptions/${id}/test`, full);
    expect(sent.status).toBe(202);
    const before = await stored(id);
    expectRefused(await everyWrite(writeOnly, id, (sent.body as { event_id: string }).event_id), 'resources:read');
    expect(await stored(id)).toEqual(before);
  });

  it('refuses the same writes through a portal session of that key', async () => {
    const id = await subscribe(full, ['order.created']);
    const sent = await call('POST', `${v1}/subscriptions/${id}/test`, full);
    const before = await stored(id);
    expectRefused(await everyWrite(await portalToken(writeOnly), id, (sent.body as { event_id: string }).event_id), 'resources:read');
    expect(await stored(id)).toEqual(before);
  });

  it("refuses every write to an admin key's all-owners subscription by the owner's other keys and portal", async () => {
    const id = await subscribe(admin, ['order.created']);
    expect((await stored(id))?.all_owners).toBe(true);
    const sent = await call('POST', `${v1}/subscriptions/${id}/test`, admin);
    const eventId = (sent.body as { event_id: string }).event_id;
    const before = await stored(id);
    expectRefused(await everyWrite(full, id, eventId), 'admin');
    expectRefused(await everyWrite(await portalToken(full), id, eventId), 'admin');
    expect(await stored(id)).toEqual(before);
  });

  it('lets a key that could create it change it', async () => {
    const id = await subscribe(full, ['order.created']);
    const changed = await call('PATCH', `${v1}/subscriptions/${id}`, full, { description: 'still mine' });
    expect(changed.status).toBe(200);
    expect((await call('POST', `${v1}/subscriptions/${id}/rotate-secret`, full, {})).status).toBe(200);
  });

  it('refuses a new url that would take stored headers and auth along (422 naming both), and changes nothing', async () => {
    const id = await subscribe(full, ['order.created']);
    const before = await stored(id);
    const moved = await call('PATCH', `${v1}/subscriptions/${id}`, full, { url: attacker });
    expect(moved.status).toBe(422);
    expect(moved.type).toContain('application/problem+json');
    const problem = moved.body as Problem;
    expect(problem.errors?.map((e) => e.path)).toEqual(['/body/headers', '/body/auth']);
    expect(problem.detail).toContain('headers and auth');
    const halfway = await call('PATCH', `${v1}/subscriptions/${id}`, full, { url: attacker, headers: credentials.headers });
    expect(halfway.status).toBe(422);
    expect((halfway.body as Problem).errors?.map((e) => e.path)).toEqual(['/body/auth']);
    expect(await stored(id)).toEqual(before);
  });

  it('moves the url when the credentials are sent again, or explicitly dropped', async () => {
    const id = await subscribe(full, ['order.created']);
    const again = await call('PATCH', `${v1}/subscriptions/${id}`, full, { url: attacker, ...credentials });
    expect(again.status).toBe(200);
    expect((again.body as { url: string }).url).toBe(attacker);
    const dropped = await call('PATCH', `${v1}/subscriptions/${id}`, full, { url: hook, headers: {}, auth: null });
    expect(dropped.status).toBe(200);
    expect(dropped.body).not.toHaveProperty('headers');
    expect(dropped.body).not.toHaveProperty('auth');
    // Nothing sealed left: the url moves freely.
    expect((await call('PATCH', `${v1}/subscriptions/${id}`, full, { url: attacker })).status).toBe(200);
  });
});
