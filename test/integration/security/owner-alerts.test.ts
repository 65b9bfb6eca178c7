import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlertActivities } from '../../../activities/alerts';
import { createClient, type WebhookServiceClient } from '../../../src/client';
import { startTestApi, type TestApi } from '../../support/api';

const v1 = '/api/webhooks/v1';
const hook = 'http://127.0.0.1:9/hooks';

describe("security: an owner sees its own deliveries' alerts, administrators every one", () => {
  let api: TestApi;
  let ownerA: WebhookServiceClient;
  let ownerB: WebhookServiceClient;
  let admin: WebhookServiceClient;
  const alertOf: Record<'a' | 'b', string> = { a: '', b: '' };

  beforeAll(async () => {
    api = await startTestApi();
    ({ client: ownerA } = await api.clientWith(['webhooks:read', 'webhooks:write'], 'owner-a'));
    ({ client: ownerB } = await api.clientWith(['webhooks:read', 'webhooks:write'], 'owner-b'));
    ({ client: admin } = await api.clientWith(['admin'], 'admin'));
    // The worker's own activity, over the test database: what a delivery whose attempts ran out raises.
    const { raiseAlert } = createAlertActivities({ db: api.mongo.db, allowPrivate: true, timeoutMs: 1000, userAgent: 'test' });
    for (const [owner, client] of [['a', ownerA], ['b', ownerB]] as const) {
      const sub = (await client.POST(`${v1}/subscribe`, { body: { url: hook, events: ['webhook.test'] } })).data!;
      alertOf[owner] = (await raiseAlert({ kind: 'delivery_failed', subscriptionId: sub.id, eventId: 'evt_0000000000000000alert', key: `series-${owner}`, message: `failed for ${owner}` })).id;
    }
  });
  afterAll(async () => {
    await api.close();
  });

  const ids = async (client: WebhookServiceClient): Promise<string[]> => {
    const { data, response } = await client.GET(`${v1}/alerts`);
    expect(response.status).toBe(200);
    return data!.data.map((a) => a.id).sort();
  };

  it("lists an owner's alerts to that owner only, by key and by portal session", async () => {
    expect(await ids(ownerA)).toEqual([alertOf.a]);
    expect(await ids(ownerB)).toEqual([alertOf.b]);
    const { client } = await api.clientWith(['webhooks:read', 'webhooks:write'], 'owner-a');
    const { data } = await client.POST(`${v1}/portal-sessions`, {});
    const session = createClient({ baseUrl: api.baseUrl, headers: { Authorization: `Bearer ${data!.token}` } });
    expect(await ids(session)).toEqual([alertOf.a]);
  });

  it('lists every alert to administrators, and none without a key', async () => {
    expect(await ids(admin)).toEqual([alertOf.a, alertOf.b].sort());
    expect((await api.anonymous().GET(`${v1}/alerts`)).response.status).toBe(401);
  });
});
