import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlertActivities } from '../../../activities/alerts';
import { OperationalNotices } from '../../../src/alerts/repository';
import { SubscriptionRepository } from '../../../src/subscriptions/repository';
import { checkDeprecatedVersions, deprecatedInUseId, startDeprecationWatch } from '../../../src/subscriptions/deprecated-versions';
import { verify } from '../../../src/receiver';
import { versionDeprecations } from '../../../src/webhooks/versions';
import { startTestApi, type TestApi } from '../../support/api';
import { deprecatedContract } from '../../support/deprecated-contract';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';
import { bodyErrors, deprecatedInUseWebhook, headerErrors } from '../../support/webhook-schemas';

const alertSecret = `whsec_${Buffer.alloc(24, 9).toString('base64')}`;
const contract = deprecatedContract(1, '2026-01-01T00:00:00Z', '2026-12-31T00:00:00Z');
const deprecations = versionDeprecations(contract);
const quiet = { info: () => undefined, warn: () => undefined };
/** The repositories the worker hands the watch, over the test API's database. */
const watchRepositories = (api: TestApi) => ({ subscriptions: new SubscriptionRepository(api.mongo.db), notices: new OperationalNotices(api.mongo.db) });

/**
 * Version 1 deprecated in a copy of the contract, over the real stack (API, MongoDB wire server,
 * a loopback receiver as ADMIN_ALERT_URL): its subscribe paths say so in headers, the admin
 * endpoint lists who is still on it, and the administrator is told once a day.
 */
describe('a deprecated envelope version', () => {
  let api: TestApi;
  let operator: TestReceiver;

  beforeAll(async () => {
    // The operator's endpoint fails the first notice, then acknowledges.
    operator = await startReceiver((_req, res, n) => res.writeHead(n === 1 ? 503 : 200).end());
    api = await startTestApi({ ADMIN_ALERT_URL: operator.url, ADMIN_ALERT_SECRET: alertSecret }, { contract });
  });
  afterAll(async () => {
    await operator?.close();
    await api?.close();
  });

  /** How the worker POSTs to ADMIN_ALERT_URL, signed with ADMIN_ALERT_SECRET. */
  const operatorNotifier = () =>
    createAlertActivities({ db: api.mongo.db, allowPrivate: true, timeoutMs: 5000, userAgent: 'WebhookService/test', alertUrl: operator.url, alertSecret }).notifyOperator;
  const hook = 'https://receiver.example.com/hooks';
  const deprecationHeaders = {
    deprecation: '@1767225600',
    sunset: 'Thu, 31 Dec 2026 00:00:00 GMT',
    link: '</docs#operation/createSubscriptionV1>; rel="deprecation"; type="text/html", </docs#operation/createSubscriptionV1>; rel="sunset"; type="text/html"',
  };
  const ids: Record<string, string> = {};

  it('answers on its subscribe paths with Deprecation, Sunset and Link; the other version without', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'webhooks:read']);
    const v1 = await client.POST('/api/webhooks/v1/subscribe', { body: { url: hook, events: ['webhook.test'] } });
    expect(v1.response.status).toBe(201);
    for (const [name, value] of Object.entries(deprecationHeaders)) expect(v1.response.headers.get(name), name).toBe(value);

    // The unversioned alias is version 1 too: same dates, its own documentation.
    const legacy = await client.POST('/api/webhooks/subscribe', { body: { url: hook, events: ['webhook.test'] } });
    expect(legacy.response.status).toBe(201);
    expect(legacy.response.headers.get('deprecation')).toBe(deprecationHeaders.deprecation);
    expect(legacy.response.headers.get('link')).toContain('</docs#operation/createSubscriptionLegacy>; rel="deprecation"');

    const v2 = await client.POST('/api/webhooks/v2/subscribe', { body: { url: hook, events: ['webhook.test'] } });
    expect(v2.response.status).toBe(201);
    expect([v2.response.headers.get('deprecation'), v2.response.headers.get('sunset')]).toEqual([null, null]);

    // Errors of the path carry them too: the client learns of the deprecation whatever it sent.
    const bad = await client.POST('/api/webhooks/v1/subscribe', { body: { url: 'not a url', events: [] } as never });
    expect(bad.response.status).toBe(400);
    expect(bad.response.headers.get('sunset')).toBe(deprecationHeaders.sunset);

    // A paused v1 subscription is not "active": not listed, not counted.
    const paused = await client.POST('/api/webhooks/v1/subscribe', { body: { url: hook, events: ['webhook.test'] } });
    await client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: paused.data!.id } }, body: { status: 'paused' } });
    Object.assign(ids, { v1: v1.data!.id, legacy: legacy.data!.id, v2: v2.data!.id });
  });

  it('lists the active subscriptions on it for administrators, every owner’s, page by page', async () => {
    const { client: other } = await api.clientWith(['webhooks:write'], 'owner-b');
    const b = await other.POST('/api/webhooks/v1/subscribe', { body: { url: `${hook}/b`, events: ['webhook.test'] } });
    const { client: admin } = await api.clientWith(['admin']);
    const seen: Array<{ id: string; owner_id: string; version: number; sunset: string; deprecated_at: string }> = [];
    let cursor: string | undefined;
    do {
      const page = await admin.GET('/api/webhooks/v1/deprecated-subscriptions', { params: { query: { limit: 2, ...(cursor ? { cursor } : {}) } } });
      expect(page.response.status).toBe(200);
      seen.push(...page.data!.data);
      cursor = page.data!.next_cursor;
    } while (cursor);
    expect(seen.map((s) => s.id)).toEqual([b.data!.id, ids.legacy, ids.v1]);
    expect(seen.map((s) => s.owner_id)).toEqual(['owner-b', 'owner-a', 'owner-a']);
    for (const s of seen) expect(s).toMatchObject({ version: 1, status: 'active', url: expect.stringContaining(hook) as string, deprecated_at: '2026-01-01T00:00:00.000Z', sunset: '2026-12-31T00:00:00.000Z' });

    const { client: writer } = await api.clientWith(['webhooks:write', 'webhooks:read']);
    expect((await writer.GET('/api/webhooks/v1/deprecated-subscriptions')).response.status).toBe(403);
  });

  it('tells the administrator once a day through the version.deprecated_in_use operational webhook', async () => {
    const notifyOperator = operatorNotifier();
    const now = () => new Date('2026-03-02T08:00:00Z');
    const check = () => checkDeprecatedVersions({ ...watchRepositories(api), deprecations, notifyOperator, logger: quiet, now });

    // The operator answers 503: the notice is not acknowledged, and the next check sends it again.
    await expect(check()).rejects.toThrow(/HTTP 503/);
    expect(await check()).toEqual([{ version: 1, active: 3, notified: true }]);
    // Acknowledged: not again that day, however often the worker checks.
    expect(await check()).toEqual([{ version: 1, active: 3, notified: false }]);
    expect(operator.received).toHaveLength(2);

    const [, got] = operator.received;
    expect(got!.headers['webhook-id']).toBe(deprecatedInUseId(1, now()));
    expect(got!.headers['webhook-id']).toBe('op_version.deprecated_in_use_v1_2026-03-02');
    expect(operator.received[0]!.body).toBe(got!.body);
    expect(headerErrors(deprecatedInUseWebhook, got!.headers)).toEqual([]);
    const body = verify<Record<string, unknown>>(got!.body, got!.headers, alertSecret);
    expect(bodyErrors(deprecatedInUseWebhook, body, 'closed')).toEqual([]);
    expect(body).toEqual({
      type: 'version.deprecated_in_use',
      timestamp: '2026-03-02T08:00:00.000Z',
      data: { version: 1, deprecated_at: '2026-01-01T00:00:00.000Z', sunset: '2026-12-31T00:00:00.000Z', active_subscriptions: 3 },
    });

    // The next day, a new notice.
    const tomorrow = () => new Date('2026-03-03T08:00:00Z');
    expect(await checkDeprecatedVersions({ ...watchRepositories(api), deprecations, notifyOperator, logger: quiet, now: tomorrow })).toEqual([{ version: 1, active: 3, notified: true }]);
    expect(operator.received.at(-1)!.headers['webhook-id']).toBe('op_version.deprecated_in_use_v1_2026-03-03');
  });

  it('is checked by the worker’s watch at start and then on its interval', async () => {
    const notifyOperator = operatorNotifier();
    const before = operator.received.length;
    let day = '2026-03-04';
    const watch = startDeprecationWatch({ ...watchRepositories(api), deprecations, notifyOperator, logger: quiet, now: () => new Date(`${day}T08:00:00Z`) }, 100);
    try {
      await waitFor(() => operator.received.length === before + 1, 10_000);
      day = '2026-03-05';
      await waitFor(() => operator.received.length === before + 2, 10_000);
    } finally {
      await watch.stop();
    }
    expect(operator.received.slice(before).map((r) => r.headers['webhook-id'])).toEqual(['op_version.deprecated_in_use_v1_2026-03-04', 'op_version.deprecated_in_use_v1_2026-03-05']);
  });

  it('moves a subscription between versions by PATCH; a move to the deprecated one says so in headers', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'webhooks:read']);
    const created = await client.POST('/api/webhooks/v2/subscribe', { body: { url: hook, events: ['webhook.test'] } });
    const path = { subscription_id: created.data!.id };
    const down = await client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path }, body: { version: 1 } });
    expect(down.response.status).toBe(200);
    expect(down.data?.version).toBe(1);
    for (const [name, value] of Object.entries(deprecationHeaders)) expect(down.response.headers.get(name), name).toBe(value);
    const up = await client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path }, body: { version: 2 } });
    expect(up.data?.version).toBe(2);
    expect(up.response.headers.get('deprecation')).toBeNull();
    expect(up.response.headers.get('sunset')).toBeNull();
    const bad = await client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path }, body: { version: 3 as 2 } });
    expect(bad.response.status).toBe(400);
    expect((await client.GET('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path } })).data?.version).toBe(2);
    await client.DELETE('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path } });
  });
});
