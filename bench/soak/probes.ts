/** The soak's list probes: the five list endpoints, one after another, each bounded by a timeout. */
import type { ApiClient } from '../lib/api-client';
import { nowMs, sleep } from '../lib/stats';
import type { ProbeName, ProbeSample } from './minutes';

/** The probed paths: a soak subscription's attempts and events, the probed user's orders, the key's subscriptions, the alerts (admin). */
export function probePaths(subscriptionId: string, userId: number): Record<ProbeName, string> {
  return {
    attempts: `/api/webhooks/v1/subscriptions/${subscriptionId}/attempts?limit=20`,
    events: `/api/webhooks/v1/subscriptions/${subscriptionId}/events?limit=20`,
    orders: `/api/users/${userId}/orders?limit=20`,
    subscriptions: '/api/webhooks/v1/subscriptions?limit=20',
    alerts: '/api/webhooks/v1/alerts?limit=20',
  };
}

/**
 * Every `intervalMs` until `until()` says stop, GETs each path in turn (alerts with the admin
 * client) and pushes a sample; a probe that times out is recorded at the timeout's value.
 */
export async function runProbes(
  clients: { api: ApiClient; admin: ApiClient },
  paths: Record<ProbeName, string>,
  opts: { intervalMs: number; timeoutMs: number; until: () => boolean },
  samples: ProbeSample[],
): Promise<void> {
  while (!opts.until()) {
    const round = nowMs();
    for (const [name, path] of Object.entries(paths) as Array<[ProbeName, string]>) {
      const at = nowMs();
      const client = name === 'alerts' ? clients.admin : clients.api;
      const res = await client.request('GET', path, undefined, opts.timeoutMs).catch((err: unknown) => ({ status: 0, body: (err as Error).message }));
      const ms = Math.round((nowMs() - at) * 10) / 10;
      const timedOut = res.status === 0 && String(res.body).includes('timed out');
      samples.push({ name, at, ms: timedOut ? opts.timeoutMs : ms, status: res.status, timedOut });
    }
    await sleep(Math.max(0, round + opts.intervalMs - nowMs()));
  }
}
