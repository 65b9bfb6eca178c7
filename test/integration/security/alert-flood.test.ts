import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlertActivities } from '../../../activities/alerts';
import type { WebhookServiceClient } from '../../../src/client';
import type { AlertDoc } from '../../../src/alerts/repository';
import type { AlertNotification } from '../../../src/contract/types';
import { verify } from '../../../src/receiver';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';
import { alertWebhook, bodyErrors } from '../../support/webhook-schemas';

const v1 = '/api/webhooks/v1';
const alertSecret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
const limit = 2;
const hour = 3_600_000;

describe("security: one owner's failing subscriptions cannot flood the administrator", () => {
  let api: TestApi;
  let worker: TestWorker;
  let alertsIn: TestReceiver;
  let failing: TestReceiver;
  let admin: WebhookServiceClient;

  beforeAll(async () => {
    alertsIn = await startReceiver((_req, res) => res.writeHead(204).end());
    failing = await startReceiver((_req, res) => res.writeHead(500).end());
    api = await startTestApi({ ADMIN_ALERT_URL: alertsIn.url, ADMIN_ALERT_SECRET: alertSecret, ADMIN_ALERTS_PER_OWNER_PER_HOUR: String(limit) });
    worker = await startTestWorker(api);
    ({ client: admin } = await api.clientWith(['admin'], 'ops'));
  });
  afterAll(async () => {
    await worker?.stop();
    await api?.close();
    await Promise.all([alertsIn, failing].filter(Boolean).map((r) => r.close()));
  });

  /** The verified alert POSTs the administrator received (some signed on a clock hours ahead). */
  const notifications = () => alertsIn.received.map((r) => verify<AlertNotification>(r.body, r.headers, alertSecret, { toleranceSeconds: 86_400 }));
  const storedAlerts = (ids: string[]) => api.mongo.db.collection<AlertDoc>('alerts').find({ subscription_id: { $in: ids } }).toArray();

  /** Creates `count` subscriptions of a new owner to the failing receiver, each failing for good at its first attempt. */
  async function owner(count: number) {
    const ownerId = `owner-${randomUUID().slice(0, 8)}`;
    const { client } = await api.clientWith(['webhooks:read', 'webhooks:write'], ownerId);
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const sub = await client.POST(`${v1}/subscribe`, { body: { url: failing.url, events: ['webhook.test'], retry: { schedule: ['1s'], max_attempts: 1 } } });
      expect(sub.response.status).toBe(201);
      ids.push(sub.data!.id);
    }
    return { ownerId, client, ids };
  }

  let flooder: Awaited<ReturnType<typeof owner>>;

  it("POSTs at most the limit of one owner's failures per hour, stores and lists every one, and still POSTs another owner's", async () => {
    flooder = await owner(5);
    const other = await owner(1);
    for (const { client, ids } of [flooder, other]) {
      for (const id of ids) expect((await client.POST(`${v1}/subscriptions/{subscription_id}/test`, { params: { path: { subscription_id: id } } })).response.status).toBe(202);
    }
    const all = [...flooder.ids, ...other.ids];
    // Every failure is stored and settled (POSTed or held back) before anything is counted.
    await waitFor(async () => (await storedAlerts(all)).filter((a) => a.notified_at || a.admin_slot?.send === false).length === all.length, 60_000);

    const stored = await storedAlerts(flooder.ids);
    expect(stored).toHaveLength(5);
    const posted = notifications().filter((n) => flooder.ids.includes(n.alert.subscription_id));
    expect(posted.length).toBeLessThan(5);
    expect(posted.every((n) => n.owner_id === flooder.ownerId)).toBe(true);
    // Whatever clock hour each alert fell in, no hour has more than `limit` POSTs of this owner.
    const perWindow = new Map<number, AlertDoc[]>();
    for (const a of stored) perWindow.set(a.admin_slot!.window, [...(perWindow.get(a.admin_slot!.window) ?? []), a]);
    for (const [, inWindow] of perWindow) expect(inWindow.filter((a) => a.admin_slot!.send)).toHaveLength(Math.min(limit, inWindow.length));
    expect(posted.map((n) => n.alert.id).sort()).toEqual(stored.filter((a) => a.admin_slot!.send).map((a) => a._id).sort());

    // The other owner's failure still reached the administrator.
    expect(notifications().filter((n) => other.ids.includes(n.alert.subscription_id)).map((n) => n.owner_id)).toEqual([other.ownerId]);

    // Nothing is lost: the administrator and the owner list every failure, POSTed or not.
    const listed = async (client: WebhookServiceClient) => ((await client.GET(`${v1}/alerts`, { params: { query: { limit: 100 } } })).data?.data ?? []).filter((a) => flooder.ids.includes(a.subscription_id));
    expect(await listed(admin)).toHaveLength(5);
    expect(await listed(flooder.client)).toHaveLength(5);
  });

  it("tells, in the owner's first POST of a later hour, how many failures were not sent individually", async () => {
    const stored = await storedAlerts(flooder.ids);
    const last = Math.max(...stored.map((a) => a.admin_slot!.window));
    const held = stored.filter((a) => a.admin_slot!.window === last && !a.admin_slot!.send).length;
    expect(held).toBeGreaterThan(0);
    // The worker's activity over the same database, an hour later.
    const later = new Date((last + 1) * hour + 1000);
    const { raiseAlert } = createAlertActivities({ db: api.mongo.db, allowPrivate: true, timeoutMs: 2000, userAgent: 'test', alertUrl: alertsIn.url, alertSecret, alertsPerOwnerPerHour: limit, now: () => later });
    const before = alertsIn.received.length;
    const { id } = await raiseAlert({ kind: 'delivery_failed', subscriptionId: flooder.ids[0]!, eventId: 'evt_0000000000000000later', key: 'later', message: 'failed again' });
    const sent = notifications().slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ type: 'alert', owner_id: flooder.ownerId, suppressed: held, alert: { id } });
    // Every POST, with its count or its last-of-the-hour mark, is the contract's `admin.alert` body.
    expect(notifications().some((n) => n.limit_reached)).toBe(true);
    expect(notifications().flatMap((n) => bodyErrors(alertWebhook, n))).toEqual([]);
  });

  it('holds across workers: two processes sharing the database POST the limit between them', async () => {
    const { ids } = await owner(6);
    // Mid-hour on both workers' clocks, so the window cannot end during the test.
    const at = new Date((Math.floor(Date.now() / hour) + 2) * hour + hour / 2);
    const workers = [0, 1].map(() =>
      createAlertActivities({ db: api.mongo.db, allowPrivate: true, timeoutMs: 2000, userAgent: 'test', alertUrl: alertsIn.url, alertSecret, alertsPerOwnerPerHour: limit, now: () => at }),
    );
    const results = await Promise.all(ids.map((subscriptionId, i) => workers[i % 2]!.raiseAlert({ kind: 'delivery_failed', subscriptionId, key: 'both', message: `failed ${subscriptionId}` })));
    expect(notifications().filter((n) => ids.includes(n.alert.subscription_id))).toHaveLength(limit);
    expect(await storedAlerts(ids)).toHaveLength(6);
    expect(results.filter((r) => r.notified)).toHaveLength(limit);
  });
});
