import type { Db } from 'mongodb';
import { DispatchNotes } from '../src/events/dispatch-notes';
import { decideTurn, type KeyedEvent, laterEvents, type Turn } from '../src/events/ordering-gate';
import { OrderingMarks } from '../src/events/ordering-marks';
import { EventRepository } from '../src/events/repository';
import { OrderRepository } from '../src/orders/repository';

/** One ordered delivery: the event, its key and place, the subscription. */
export interface OrderedDelivery {
  eventId: string;
  subscriptionId: string;
  key: string;
  seq: number;
}

/** What the ordering activities read and write. */
export interface OrderingActivityDeps {
  db: Db;
  now?: () => Date;
}

/**
 * The gate of ordered delivery (src/events/ordering-gate.ts): whose turn it is, and the end of a
 * turn. Only ordered deliveries call these: an unordered subscription costs nothing here.
 */
export function createOrderingActivities(deps: OrderingActivityDeps) {
  const events = new EventRepository(deps.db);
  const notes = new DispatchNotes(deps.db);
  const marks = new OrderingMarks(deps.db);
  const orders = new OrderRepository(deps.db);
  const now = () => deps.now?.() ?? new Date();

  /** The events of a key, in the source document that holds them all (one read); none for a key without one. */
  async function history(key: string): Promise<KeyedEvent[]> {
    const order = /^order:(\d+)$/.exec(key);
    if (!order) return [];
    const outbox = await orders.outboxOf(Number(order[1]));
    return outbox.filter((e): e is typeof e & { seq: number } => e.seq !== undefined).map((e) => ({ id: e.id, seq: e.seq }));
  }

  return {
    /** Whether the delivery's turn has come: every earlier event of its key this subscription gets in order has ended there. */
    async orderingTurn(d: OrderedDelivery): Promise<Turn> {
      return decideTurn(d.subscriptionId, d.seq, await history(d.key), {
        snapshot: (id) => events.snapshotOf(id),
        noted: async (id) => (await notes.count(id)) > 0,
        ended: (sub, id) => marks.has(sub, id),
      });
    },

    /** Marks the delivery ended (once) and returns the workflow-relevant later events of its key: their turn may have come. */
    async orderingDone(d: OrderedDelivery): Promise<string[]> {
      await marks.mark(d.subscriptionId, d.eventId, now());
      return laterEvents(d.seq, await history(d.key));
    },
  };
}

export type OrderingActivities = ReturnType<typeof createOrderingActivities>;
