import type { CommandStartedEvent, CommandSucceededEvent } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookServiceClient } from '../../../src/client';
import type { EventDoc } from '../../../src/events/repository';
import { seedDemoData } from '../../../src/seed/seed';
import type { SubscriptionDoc } from '../../../src/subscriptions/repository';
import { startTestApi, type TestApi } from '../../support/api';
import { subscriptionDoc } from '../../support/subscription-doc';

const v1 = '/api/webhooks/v1';
const hook = 'http://127.0.0.1:9/hooks';

/** What one order cost the `subscriptions` collection: commands sent, documents read back. */
interface SubscriptionWork {
  commands: number;
  documents: number;
}

describe("security: stock events of one owner's order do not fan out to, nor pay for, other owners' subscribers", () => {
  let api: TestApi;
  let ownerA: WebhookServiceClient;
  let ownSubscription: string;
  let otherOwnersSubscription: string;
  const onSubscriptions = new Set<number>();
  let work: SubscriptionWork = { commands: 0, documents: 0 };

  beforeAll(async () => {
    // Every order reads its subscribers: what is measured is the read, not the fan-out cache.
    api = await startTestApi({ SUBSCRIPTION_CACHE_TTL: '0s' });
    await seedDemoData(api.mongo.db, { stock: 100_000 });
    // Command monitoring shows what really goes to the database during the order; it applies from the next connect.
    (api.mongo.client.options as { monitorCommands: boolean }).monitorCommands = true;
    await api.mongo.client.close();
    await api.mongo.client.connect();
    api.mongo.client.on('commandStarted', (e: CommandStartedEvent) => {
      const collection = (e.command as Record<string, unknown>)[e.commandName === 'getMore' ? 'collection' : e.commandName];
      if (collection !== 'subscriptions') return;
      onSubscriptions.add(e.requestId);
      work.commands++;
    });
    api.mongo.client.on('commandSucceeded', (e: CommandSucceededEvent) => {
      if (!onSubscriptions.delete(e.requestId)) return;
      const cursor = (e.reply as { cursor?: { firstBatch?: unknown[]; nextBatch?: unknown[] } }).cursor;
      work.documents += (cursor?.firstBatch ?? cursor?.nextBatch ?? []).length;
    });
    ({ client: ownerA } = await api.clientWith(['webhooks:write', 'resources:read', 'orders:write'], 'owner-a'));
    ownSubscription = (await ownerA.POST(`${v1}/subscribe`, { body: { url: hook, events: ['stock.updated'] } })).data!.id;
    const { client: ownerB } = await api.clientWith(['webhooks:write', 'resources:read'], 'owner-b');
    otherOwnersSubscription = (await ownerB.POST(`${v1}/subscribe`, { body: { url: hook, events: ['stock.updated'] } })).data!.id;
  });
  afterAll(async () => {
    await api.close();
  });

  /** Places an order of `lines` products for owner A; returns what it cost and the stock events it logged. */
  async function orderOfA(lines = 2): Promise<{ work: SubscriptionWork; stockEvents: EventDoc[] }> {
    work = { commands: 0, documents: 0 };
    const items = Array.from({ length: lines }, (_, i) => ({ product_id: i + 1, quantity: 1 }));
    const order = await ownerA.POST('/api/orders/', { body: { user_id: 1, items } });
    expect(order.response.status).toBe(201);
    const spent = { ...work };
    const stored = await api.mongo.db.collection<{ _id: number; outbox: Array<{ id: string; type: string }> }>('orders').findOne({ id: order.data!.id });
    const stockIds = stored!.outbox.filter((e) => e.type === 'stock.updated').map((e) => e.id);
    expect(stockIds).toHaveLength(lines);
    const stockEvents = await Promise.all(stockIds.map(async (id) => (await api.events.find(id))!));
    return { work: spent, stockEvents };
  }

  it("goes to the ordering owner's subscribers only, and costs the same however many subscriptions other owners hold", async () => {
    const baseline = await orderOfA();
    // The fan-out reads are seen: the comparison below is not between two zeros.
    expect(baseline.work.commands).toBeGreaterThan(0);
    expect(baseline.work.documents).toBeGreaterThan(0);
    for (const e of baseline.stockEvents) {
      expect(e.subscription_ids).toContain(ownSubscription);
      expect(e.subscription_ids).not.toContain(otherOwnersSubscription);
    }

    // Another owner's many filtered subscriptions, none matching: stored as the API stores them.
    const at = new Date(Date.now() - 1000);
    const many = Array.from({ length: 250 }, (_, i) =>
      subscriptionDoc(
        { _id: `sub_b${String(i).padStart(4, '0')}`, owner_id: 'owner-b', url: hook, events: ['stock.updated'], filter: JSON.stringify({ data: { quantity: { $lt: -1 } } }) },
        'whsec_test',
        at,
      ),
    );
    await api.mongo.db.collection<SubscriptionDoc>('subscriptions').insertMany(many);

    const crowded = await orderOfA();
    expect(crowded.work).toEqual(baseline.work);
    for (const e of crowded.stockEvents) expect(e.subscription_ids).toEqual([ownSubscription]);
  });

  it('reads the subscribers of an order once per event type, however many lines it has', async () => {
    const one = await orderOfA(1);
    const six = await orderOfA(6);
    expect(six.work.commands).toBe(one.work.commands);
    for (const e of six.stockEvents) expect(e.subscription_ids).toEqual([ownSubscription]);
  });
});
