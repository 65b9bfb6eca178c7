/**
 * Status changes beside the order load, so an order's key has several events for the ordered
 * subscription: a share of the accepted orders is moved pending → paid → shipped through the API
 * as soon as it is accepted (each PATCH after the previous answered, over the other API process,
 * never retried). Bounded: at most one chain per chosen order, and `maxInFlight` chains at once.
 */
import type { ApiClient } from '../../stack/harness/api-client';
import { refusalReason } from '../../stack/harness/load';

/** The statuses each chosen order is moved to, in turn. */
export const updateChain = ['paid', 'shipped'] as const;

/** What the status changes did. */
export interface UpdateResult {
  /** Accepted orders chosen for the chain. */
  orders: number;
  /** PATCHes sent, and those answered 200. */
  sent: number;
  applied: number;
  /** Chosen orders whose chain was skipped because `maxInFlight` chains were running. */
  skipped: number;
  /** The rest by reason (`HTTP 409` when an earlier step did not land, a timeout, ...). */
  refused: Record<string, number>;
}

/** Starts chains for every `1/share`-th accepted order; `done` waits for the running ones. */
export function orderUpdates(apis: readonly ApiClient[], opts: { share: number; requestTimeoutS: number; maxInFlight: number }): { accepted: (orderId: number) => void; done: () => Promise<UpdateResult> } {
  const r: UpdateResult = { orders: 0, sent: 0, applied: 0, skipped: 0, refused: {} };
  const running = new Set<Promise<void>>();
  let seen = 0;
  let due = 0;
  const chain = async (orderId: number) => {
    const api = apis[(orderId + 1) % apis.length]!;
    for (const status of updateChain) {
      r.sent++;
      const res = await api.request('PATCH', `/api/orders/${orderId}`, { status }, opts.requestTimeoutS * 1000).then(
        (x) => ({ status: x.status, error: undefined }),
        (err: Error) => ({ status: 0, error: err.message }),
      );
      if (res.status === 200) {
        r.applied++;
        continue;
      }
      const reason = refusalReason(res.status, res.error);
      r.refused[reason] = (r.refused[reason] ?? 0) + 1;
      return;
    }
  };
  return {
    accepted(orderId) {
      // Every 1/share-th, spread evenly: share 0.25 picks the 1st, 5th, 9th, ...
      if (opts.share <= 0 || seen++ < due) return;
      due += 1 / opts.share;
      if (running.size >= opts.maxInFlight) {
        r.skipped++;
        return;
      }
      r.orders++;
      const p = chain(orderId);
      running.add(p);
      void p.finally(() => running.delete(p));
    },
    async done() {
      while (running.size) await Promise.all(running);
      return r;
    },
  };
}
