import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StockMoveDoc } from '../../../src/inventory/repository';
import type { OrderDoc } from '../../../src/orders/repository';
import { seedDemoData } from '../../../src/seed/seed';
import { startTestApi, type TestApi } from '../../support/api';
import { type ApiProcess, startApiProcess } from '../../support/api-process';
import { waitFor } from '../../support/wait';

describe('stock under concurrent orders from two API processes', () => {
  let api: TestApi;
  const processes: ApiProcess[] = [];
  beforeAll(async () => {
    api = await startTestApi();
    await seedDemoData(api.mongo.db);
    // Two real API processes on one database: nothing shared but the database.
    const env = { API_MAX_IN_FLIGHT: '0', RATE_LIMIT_ENABLED: 'false' };
    processes.push(...(await Promise.all([startApiProcess(api, env), startApiProcess(api, env)])));
  });
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.process.stop()));
    await api.close();
  });

  it('40 orders at once for a product with 10 in stock sell exactly 10 units; the losers keep nothing of their other line', async () => {
    const { client: admin } = await api.clientWith(['admin'], 'ops');
    // Product 6 has 10 units, product 7 plenty: every order asks one of each, product 7 first.
    expect((await admin.PATCH('/api/inventory/stock/{product_id}', { params: { path: { product_id: 6 } }, body: { quantity: 10 } })).response.status).toBe(200);
    expect((await admin.PATCH('/api/inventory/stock/{product_id}', { params: { path: { product_id: 7 } }, body: { quantity: 100 } })).response.status).toBe(200);
    const { key } = await api.clientWith(['orders:write', 'resources:read']);

    const responses = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const res = await fetch(`${processes[i % 2]!.baseUrl}/api/orders/`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({
            user_id: 1 + (i % 5),
            items: [
              { product_id: 7, quantity: 1 },
              { product_id: 6, quantity: 1 },
            ],
          }),
        });
        return { status: res.status, body: (await res.json()) as { id?: number; title?: string } };
      }),
    );
    const created = responses.filter((r) => r.status === 201);
    const refused = responses.filter((r) => r.status === 409);
    expect(created.length + refused.length, JSON.stringify(responses.filter((r) => r.status !== 201 && r.status !== 409))).toBe(40);
    expect(created).toHaveLength(10);
    expect(new Set(refused.map((r) => r.body.title))).toEqual(new Set(['Insufficient Stock']));

    // This process lists what the two others copied from their ledgers: each copy lands within about 50 ms.
    const levels = async () => (await admin.GET('/api/inventory/stock')).data!.data.filter((s) => s.product_id === 6 || s.product_id === 7).map((s) => s.quantity);
    await waitFor(async () => JSON.stringify(await levels()) === JSON.stringify([0, 90]), 5_000).catch(() => undefined);
    expect(await levels()).toEqual([0, 90]);
    // What the orders hold is exactly what left stock.
    const orders = await api.mongo.db.collection<OrderDoc>('orders').find({ id: { $in: created.map((r) => r.body.id!) } }).toArray();
    expect(orders.flatMap((o) => o.items).filter((i) => i.product_id === 6).reduce((sum, i) => sum + i.quantity, 0)).toBe(10);
    const moves = await api.mongo.db.collection<StockMoveDoc>('stock_moves').find({ product_id: { $in: [6, 7] } }).toArray();
    const net = (productId: number) => moves.filter((m) => m.product_id === productId && m.reason !== 'adjustment').reduce((sum, m) => sum + m.delta, 0);
    expect([net(6), net(7)]).toEqual([-10, -10]);
    // Every reservation was settled: nothing is left for the sweeper.
    expect(await api.mongo.db.collection('stock_intents').countDocuments()).toBe(0);
  });
});
