import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../../generated/api';
import { startTestApi, type TestApi } from '../../support/api';

type Problem = components['schemas']['Problem'];

// A small request with thousands of invalid fields must not be answered with megabytes.
describe('a problem stays small whatever the request (low: error list size)', () => {
  let api: TestApi;
  let key: string;
  beforeAll(async () => {
    api = await startTestApi();
    key = (await api.clientWith(['orders:write'])).key;
  });
  afterAll(async () => {
    await api.close();
  });

  it('lists the first 50 errors, each short, and says how many there were', async () => {
    const items = Array.from({ length: 1400 }, () => ({ product_id: 'x', quantity: 'y' }));
    const res = await fetch(`${api.baseUrl}/api/orders/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: 1, items }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const text = await res.text();
    expect(text.length).toBeLessThan(32 * 1024);
    const problem = JSON.parse(text) as Problem;
    expect(problem.errors).toHaveLength(50);
    expect(problem.errors?.[0]?.path).toMatch(/^\/body\/items/);
    expect(problem.detail).toMatch(/50 of [0-9]+ errors listed/);
    expect(await api.mongo.db.collection('orders').countDocuments({})).toBe(0);
  });
});
