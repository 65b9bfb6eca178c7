import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../../../src/seed/seed';
import { createApiMetrics } from '../../../src/telemetry/metrics';
import { startTestApi, type TestApi } from '../../support/api';
import { waitFor } from '../../support/wait';

/**
 * Holds every call of `target[method]` until `open()`: the test's way to keep requests in flight.
 * `held()` counts the calls it has held; `restore()` opens and puts the method back.
 */
function hold<T extends object, K extends keyof T>(target: T, method: K) {
  const original = target[method] as (...args: unknown[]) => Promise<unknown>;
  let release!: () => void;
  const opened = new Promise<void>((r) => (release = r));
  let waiting = 0;
  target[method] = (async (...args: unknown[]) => {
    waiting++;
    await opened;
    return original.apply(target, args);
  }) as T[K];
  return {
    held: () => waiting,
    open: () => release(),
    restore() {
      release();
      target[method] = original as T[K];
    },
  };
}

// The real app over the real database, with a bound of 4 requests in flight; requests are held
// in flight by blocking a repository call (users) or the key lookup through the injected deps.
describe('load shedding (API_MAX_IN_FLIGHT)', () => {
  const bound = 4;
  let api: TestApi;
  let key: string;

  beforeAll(async () => {
    api = await startTestApi({ API_MAX_IN_FLIGHT: String(bound) }, { metrics: createApiMetrics() });
    await seedDemoData(api.mongo.db);
    key = (await api.clientWith(['resources:read', 'orders:write'])).key;
  });
  afterAll(async () => {
    await api.close();
  });

  const auth = () => ({ authorization: `Bearer ${key}` });
  const order = (idempotencyKey: string, signal?: AbortSignal) =>
    fetch(`${api.baseUrl}/api/orders/`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      body: JSON.stringify({ user_id: 2, items: [{ product_id: 3, quantity: 1 }] }),
      ...(signal ? { signal } : {}),
    });
  const orderCount = () => api.mongo.db.collection('orders').countDocuments({ owner_id: 'owner-a' });
  const shedTotal = async (reason: string) => (await api.deps.metrics!.requestsShed.get()).values.find((v) => v.labels.reason === reason)?.value ?? 0;

  it('answers requests beyond the bound with 503 problem+json and Retry-After, writing nothing; probes still answer; afterwards all are accepted', async () => {
    const users = hold(api.deps.resources.users, 'findById');
    try {
      const slow = Array.from({ length: bound }, () => fetch(`${api.baseUrl}/api/users/1`, { headers: auth() }));
      await waitFor(() => users.held() === bound, 10_000, 20);
      const ordersBefore = await orderCount();

      const keys = Array.from({ length: 10 }, () => randomUUID());
      const refused = await Promise.all(keys.map((k) => order(k)));
      for (const res of refused) {
        expect(res.status).toBe(503);
        expect(res.headers.get('content-type')).toContain('application/problem+json');
        expect(res.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
        expect(await res.json()).toMatchObject({ status: 503, title: 'Service Overloaded', detail: expect.stringContaining('API_MAX_IN_FLIGHT') as unknown, instance: '/api/orders/' });
      }
      // Refused before the key lookup and the handler: no order, no claimed idempotency key.
      expect(await orderCount()).toBe(ordersBefore);
      expect(await api.mongo.db.collection('idempotency_keys').countDocuments({})).toBe(0);
      expect(users.held()).toBe(bound);

      // Probes, scrapes and the contract are never shed.
      for (const path of ['/healthz', '/metrics', '/openapi.json', '/docs']) {
        expect((await fetch(`${api.baseUrl}${path}`)).status, path).toBe(200);
      }
      // Readiness answers too; once full for a second it says so (the probe reads its checks, never a shed problem).
      const readiness = await fetch(`${api.baseUrl}/readyz`);
      expect(await readiness.json()).toMatchObject({ checks: { mongodb: 'up', temporal: 'up', admission: readiness.status === 200 ? 'open' : 'saturated' } });
      const metricsText = await (await fetch(`${api.baseUrl}/metrics`)).text();
      expect(metricsText).toMatch(/http_requests_shed_total\{reason="in_flight",component="api"\} 10\b/);
      expect(metricsText).toMatch(/http_requests_in_flight\{component="api"\} 4\b/);
      // Their timings are labelled as shed, not mixed with unknown paths.
      expect(metricsText).toMatch(/http_request_duration_seconds_count\{[^}]*route="shed"[^}]*status_code="503"[^}]*\} 10\b/);

      users.open();
      for (const res of await Promise.all(slow)) expect(res.status).toBe(200);

      // The burst is over: the same requests, same idempotency keys, now run (a 503 was not kept).
      const accepted = await Promise.all(keys.slice(0, bound).map((k) => order(k)));
      for (const res of accepted) {
        expect(res.status).toBe(201);
        expect(res.headers.get('idempotent-replayed')).toBeNull();
      }
      expect(await orderCount()).toBe(ordersBefore + bound);
    } finally {
      users.restore();
    }
  });

  it('does no work for a request whose client gave up while it waited for authentication', async () => {
    const lookups = hold(api.deps.apiKeys, 'authenticate');
    try {
      const ordersBefore = await orderCount();
      const goneBefore = await shedTotal('client_gone');
      const abort = new AbortController();
      const gone = order(randomUUID(), abort.signal).catch((err: unknown) => err);
      await waitFor(() => lookups.held() === 1, 10_000, 20);
      abort.abort();
      expect(await gone).toBeInstanceOf(Error);
      // The server has seen the connection close (its place is free) before the lookup returns.
      await waitFor(async () => (await api.deps.metrics!.requestsInFlight.get()).values[0]?.value === 0, 10_000, 20);
      lookups.open();
      await waitFor(async () => (await shedTotal('client_gone')) === goneBefore + 1, 10_000, 20);
      expect(await orderCount()).toBe(ordersBefore);
    } finally {
      lookups.restore();
    }
    expect((await order(randomUUID())).status).toBe(201);
  });
});
