/**
 * Steady open-loop load: `POST /api/orders/` at a fixed rate for a fixed time, round-robin over
 * the API processes, never retried (a refusal is counted, not hidden). Bounded in count (rate ×
 * duration), in time (each request has a timeout) and in requests in flight.
 */
import type { ApiClient } from './api-client';
import { nowMs, sleep } from './stats';

/** One order POST and what became of it. */
export interface OrderSend {
  /** Which API process it went to. */
  api: number;
  /** Epoch ms when it was sent. */
  sentAt: number;
  latencyMs: number;
  /** Set when the API answered 201. */
  orderId?: number;
  /** Why it was not accepted: `HTTP 503`, `connection refused`, `timeout`, ... */
  refused?: string;
}

export interface LoadResult {
  /** Epoch ms of the first and the last planned send. */
  startedAt: number;
  endedAt: number;
  planned: number;
  sends: OrderSend[];
  /** Sends skipped because `maxInFlight` requests were already waiting: the generator could not hold the rate. */
  skipped: number;
  /** Epoch ms each skipped send was due. */
  skippedAt: number[];
  /** Largest delay of a send behind its planned time, ms (event-loop stalls of this process). */
  maxLagMs: number;
}

/** Names a failed request's reason from its status or client error. */
export function refusalReason(status: number, error: string | undefined): string {
  if (status !== 0) return `HTTP ${status}`;
  const e = error ?? '';
  if (e.includes('ECONNREFUSED')) return 'connection refused';
  if (e.includes('timed out')) return 'timeout';
  if (e.includes('ECONNRESET') || e.includes('socket hang up')) return 'connection reset';
  return `error: ${e.slice(0, 80)}`;
}

/**
 * Sends `rate` orders per second for `durationS` seconds, the i-th at start + i/rate, to
 * `apis[i % apis.length]`. Resolves once every request has an answer or timed out.
 */
export async function runLoad(
  apis: readonly ApiClient[],
  opts: { rate: number; durationS: number; requestTimeoutS: number; maxInFlight?: number; onSend?: (s: OrderSend) => void },
  progress: (line: string) => void,
): Promise<LoadResult> {
  const planned = Math.round(opts.rate * opts.durationS);
  // Enough for every request of a full timeout at the rate, plus slack; beyond that the generator is the bottleneck.
  const maxInFlight = opts.maxInFlight ?? Math.ceil(opts.rate * opts.requestTimeoutS * 1.5) + 16;
  const sends: OrderSend[] = [];
  const pending = new Set<Promise<void>>();
  let skipped = 0;
  const skippedAt: number[] = [];
  let maxLagMs = 0;
  const startedAt = nowMs() + 50;
  const timeoutMs = opts.requestTimeoutS * 1000;
  let lastReport = startedAt;
  for (let i = 0; i < planned; i++) {
    const due = startedAt + (i * 1000) / opts.rate;
    const wait = due - nowMs();
    if (wait > 0) await sleep(wait);
    maxLagMs = Math.max(maxLagMs, nowMs() - due);
    if (pending.size >= maxInFlight) {
      skipped++;
      skippedAt.push(due);
      continue;
    }
    const api = i % apis.length;
    const p = apis[api]!.createOrder(0, timeoutMs).then((r) => {
      const send: OrderSend = { api, sentAt: r.startedAt, latencyMs: Math.round(r.latencyMs) };
      if (r.ok) send.orderId = r.orderId!;
      else send.refused = refusalReason(r.status, r.error);
      sends.push(send);
      opts.onSend?.(send);
    });
    pending.add(p);
    void p.finally(() => pending.delete(p));
    if (nowMs() - lastReport > 10_000) {
      lastReport = nowMs();
      const accepted = sends.filter((s) => s.orderId !== undefined).length;
      progress(`load: ${i + 1}/${planned} sent, ${accepted} accepted, ${sends.length - accepted} refused, ${pending.size} in flight`);
    }
  }
  const endedAt = nowMs();
  await Promise.all(pending);
  sends.sort((a, b) => a.sentAt - b.sentAt);
  return { startedAt, endedAt, planned, sends, skipped, skippedAt, maxLagMs: Math.round(maxLagMs) };
}
