import type { Db } from 'mongodb';
import { DispatchNotes } from '../src/events/dispatch-notes';
import { decideTurn, type EarlierEvents, type KeyedEvent, nextInTurn, type Turn } from '../src/events/ordering-gate';
import { StockLedger } from '../src/inventory/repository';
import { stockEventSeqs } from '../src/inventory/use-cases';
import { OrderingMarks } from '../src/events/ordering-marks';
import { EventRepository } from '../src/events/repository';
import { OrderRepository } from '../src/orders/repository';
import { deliveryEnds } from '../src/events/delivery-ends';
import type { WorkflowRuns } from '../src/temporal/workflow-runs';
import { firstHeldId } from '../src/deliveries/held';

/** One ordered delivery: the event, its key and place, the subscription. */
export interface OrderedDelivery {
  eventId: string;
  subscriptionId: string;
  key: string;
  seq: number;
}

/**
 * How far back along a product's ledger the gate looks for the event before: a subscription that
 * gets few of a product's events (only `stock.low`, or a narrow filter) is ordered against the
 * ones within this many moves; nearer ones end the walk at once.
 */
export const MAX_MOVES_BACK = 64;

/** How many of a product's next moves an ended delivery looks through for the one to wake: as far as the gate looks back, so a subscription that gets few of its events is woken too. */
const MAX_MOVES_AHEAD = MAX_MOVES_BACK;

/** What the ordering activities read and write. */
export interface OrderingActivityDeps {
  db: Db;
  now?: () => Date;
  /** Where an event's workflow stands, for an end no mark tells (absent: only the marks and the attempt log tell). */
  workflowRuns?: WorkflowRuns | undefined;
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
  const ledger = new StockLedger(deps.db);
  const endedUnmarked = deliveryEnds(deps.db, deps.workflowRuns);
  const now = () => deps.now?.() ?? new Date();

  /** Whether the delivery ended: its mark, else (written then, so the next look is the mark's point read) what else tells. */
  async function ended(subscriptionId: string, eventId: string, noteId: string): Promise<boolean> {
    if (await marks.has(subscriptionId, eventId)) return true;
    if (!(await endedUnmarked(subscriptionId, eventId, noteId))) return false;
    await marks.mark(subscriptionId, eventId, now());
    return true;
  }

  /** An order's events, all in the order's outbox (one read); its take's stock events there have their product's places. */
  async function orderEvents(orderId: number): Promise<KeyedEvent[]> {
    const outbox = await orders.outboxOf(orderId);
    return outbox.filter((e): e is typeof e & { seq: number } => e.seq !== undefined && e.type.startsWith('order.')).map((e) => ({ id: e.id, seq: e.seq }));
  }

  /** The events of a product's ledger move at `moveSeq`: in its outbox, or (a take's) in its order's, by the ids the move keeps. */
  async function moveEvents(productId: number, moveSeq: number): Promise<KeyedEvent[] | undefined> {
    const move = await ledger.moveAt(productId, moveSeq);
    if (!move) return undefined;
    if (move.elsewhere) {
      const seqs = stockEventSeqs(moveSeq);
      return move.elsewhere.ids.map((id, i) => ({ id, seq: seqs[Math.min(i, 1)]!, note: move.elsewhere!.note }));
    }
    const note = move.outbox[0]?.id;
    return move.outbox.filter((e): e is typeof e & { seq: number } => e.seq !== undefined).map((e) => ({ id: e.id, seq: e.seq, ...(note !== e.id && note ? { note } : {}) }));
  }

  /** A product's events before `seq`, nearest first, move by move back along its ledger (at most MAX_MOVES_BACK moves). */
  async function* productEventsBefore(productId: number, seq: number): AsyncIterable<KeyedEvent> {
    const moveSeq = Math.floor(seq / 2);
    for (let m = moveSeq; m >= 1 && m > moveSeq - MAX_MOVES_BACK; m--) {
      const events = (await moveEvents(productId, m)) ?? [];
      yield* events.filter((e) => e.seq < seq).sort((a, b) => b.seq - a.seq);
    }
  }

  /** The key's events before `seq`; none for a key without a history (test events). */
  async function earlier(key: string, seq: number): Promise<EarlierEvents> {
    const order = /^order:(\d+)$/.exec(key);
    if (order) return orderEvents(Number(order[1]));
    const product = /^product:(\d+)$/.exec(key);
    if (product) return productEventsBefore(Number(product[1]), seq);
    return [];
  }

  /** The key's events after `seq` that exist now, nearest first: an order's, or a product's next few moves'. */
  async function* later(key: string, seq: number): AsyncIterable<KeyedEvent> {
    const order = /^order:(\d+)$/.exec(key);
    if (order) {
      yield* (await orderEvents(Number(order[1]))).filter((e) => e.seq > seq).sort((a, b) => a.seq - b.seq);
      return;
    }
    const product = /^product:(\d+)$/.exec(key);
    if (!product) return;
    for (let m = Math.floor(seq / 2); m < Math.floor(seq / 2) + MAX_MOVES_AHEAD; m++) {
      const events = await moveEvents(Number(product[1]), m);
      if (!events) return;
      yield* events.filter((e) => e.seq > seq).sort((a, b) => a.seq - b.seq);
    }
  }

  /** Marks the delivery ended (once) and returns the nearest later events of its key ordered for the subscription. */
  async function done(d: OrderedDelivery): Promise<string[]> {
    await marks.mark(d.subscriptionId, d.eventId, now());
    return nextInTurn(d.subscriptionId, later(d.key, d.seq), (id) => events.snapshotOf(id));
  }

  return {
    /** Whether the delivery's turn has come: every earlier event of its key this subscription gets in order has ended there. */
    async orderingTurn(d: OrderedDelivery): Promise<Turn> {
      return decideTurn(d.subscriptionId, d.seq, await earlier(d.key, d.seq), {
        snapshot: (id) => events.snapshotOf(id),
        noted: async (id) => (await notes.count(id)) > 0,
        ended,
      });
    },

    /** Marks the delivery ended (once) and returns the nearest later events of its key ordered for the subscription: their turn may have come. */
    orderingDone: done,

    /**
     * As orderingDone, for a drained run: with each later event, the record its hold would have,
     * so the workflow wakes the run a drain starts from it too (it may be waiting at the gate).
     */
    async orderingDoneHeld(d: OrderedDelivery): Promise<Array<{ eventId: string; heldId: string }>> {
      return (await done(d)).map((eventId) => ({ eventId, heldId: firstHeldId(d.subscriptionId, eventId) }));
    },
  };
}

export type OrderingActivities = ReturnType<typeof createOrderingActivities>;
