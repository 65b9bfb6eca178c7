import { createHash } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import { insertAll } from '../db/insert-all';
import { insertIfAbsent } from '../db/insert-if-absent';
import type { IndexSpec, QueryShape } from '../db/query-shapes';
import { seriesId } from '../../workflows/ids';
import { type AttemptDoc, attemptId } from './attempts';

/**
 * One delivery a paused subscription holds (collection `held_deliveries`): the event's delivery
 * that came due (its first attempt, or a retry) while the subscription was paused. Its workflow
 * ended its part there; resume's drain starts the delivery again from this record.
 */
export interface HeldDoc {
  /** From the subscription, the event and the run that held it: a re-run round writes the same record. */
  _id: string;
  subscription_id: string;
  event_id: string;
  event_type: string;
  /** When the event was emitted: a drain sends in this order. */
  emitted_at: Date;
  /** When the delivery was held. */
  held_at: Date;
  /** The run (its top workflow id) that held it, and the attempt that was due. */
  origin: string;
  attempt: number;
  /** `<subscription id>@<minute of emitted_at>`: the drain reads one minute of emissions at a time. */
  slot: string;
}

/** A minute of emissions that holds (or held) deliveries of one subscription (collection `held_slots`, `_id` = the slot). */
export interface HeldSlotDoc {
  _id: string;
  subscription_id: string;
  /** Start of the minute. */
  at: Date;
}

/** A position in a subscription's held deliveries, oldest first: the last one a drain read. */
export interface HeldCursor {
  /** emitted_at, epoch ms. */
  at: number;
  id: string;
}

/** Width of a slot: a drain page reads at most a slot's deliveries beyond what it returns. */
export const HELD_SLOT_MS = 60_000;

/** How many single-document deletes run at once: FerretDB v1 pushes no `$in` down, so each is its own `_id` lookup. */
const DELETE_CONCURRENCY = 8;

/** The record id of `subscriptionId`'s delivery of `eventId`, held by the run `origin`. */
export function heldId(subscriptionId: string, eventId: string, origin: string): string {
  return `held_${createHash('sha256').update(`${subscriptionId}\n${eventId}\n${origin}`).digest('hex').slice(0, 32)}`;
}

/** The slot of a delivery of an event emitted at `emittedAt` to `subscriptionId`. */
export function heldSlot(subscriptionId: string, emittedAt: Date): { id: string; at: Date } {
  const minute = Math.floor(emittedAt.getTime() / HELD_SLOT_MS);
  return { id: `${subscriptionId}@${minute}`, at: new Date(minute * HELD_SLOT_MS) };
}

/**
 * The failed attempt a delivery a drain started (its run `origin`) logs when its event is gone
 * (deleted by retention while it was held); undefined for any other run, which just cancels.
 */
export function eventGoneAttempt(origin: string | undefined, input: { eventId: string; subscriptionId: string; attempt: number }, url: string, at: Date): AttemptDoc | undefined {
  if (!origin?.includes('/redelivery/held_')) return undefined;
  const series = seriesId(origin, input.subscriptionId);
  return {
    _id: attemptId(series, input.attempt),
    event_id: input.eventId,
    subscription_id: input.subscriptionId,
    series,
    attempt: input.attempt,
    started_at: at,
    duration_ms: 0,
    outcome: 'hold_expired',
    error: 'not sent: the event was deleted (RETENTION_DAYS) while its delivery was held',
    url,
    state: 'failed',
  };
}

/** Oldest emission first, ties by id: the order a drain sends in. */
function emissionOrder(a: Pick<HeldDoc, 'emitted_at' | '_id'>, b: Pick<HeldDoc, 'emitted_at' | '_id'>): number {
  return a.emitted_at.getTime() - b.emitted_at.getTime() || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);
}

/**
 * The deliveries paused subscriptions hold. Every read is an equality read (FerretDB v1 pushes
 * nothing else down, and sorts nowhere but in memory): a subscription's slots by its id, a slot's
 * deliveries by the slot; the order is made here. A record is written before its slot, and a slot
 * is removed before its emptiness is checked again, so a record always has its slot or is seen.
 */
export class HeldDeliveryRepository {
  static readonly indexes: readonly IndexSpec[] = [
    { collection: 'held_deliveries', name: 'subscription', key: { subscription_id: 1 } },
    { collection: 'held_deliveries', name: 'slot', key: { slot: 1 } },
    { collection: 'held_slots', name: 'subscription', key: { subscription_id: 1 } },
  ];

  static readonly queryShapes: readonly QueryShape[] = [
    { collection: 'held_deliveries', method: 'HeldDeliveryRepository.hold', equality: ['_id'], index: '_id_' },
    { collection: 'held_slots', method: 'HeldDeliveryRepository.hold', equality: ['_id'], index: '_id_' },
    { collection: 'held_deliveries', method: 'HeldDeliveryRepository.count', equality: ['subscription_id'], index: 'subscription' },
    { collection: 'held_deliveries', method: 'HeldDeliveryRepository.oldestHeldAt', equality: ['subscription_id'], index: 'subscription' },
    { collection: 'held_slots', method: 'HeldDeliveryRepository.page (slots)', equality: ['subscription_id'], index: 'subscription' },
    { collection: 'held_deliveries', method: 'HeldDeliveryRepository.page (a slot)', equality: ['slot'], index: 'slot' },
    { collection: 'held_deliveries', method: 'HeldDeliveryRepository.release', equality: ['_id'], index: '_id_' },
    { collection: 'held_deliveries', method: 'HeldDeliveryRepository.dropAll', equality: ['subscription_id'], index: 'subscription' },
    { collection: 'held_slots', method: 'HeldDeliveryRepository.holding', equality: [], index: '_id_' },
    { collection: 'held_slots', method: 'HeldDeliveryRepository.settle', equality: ['subscription_id'], index: 'subscription' },
    { collection: 'held_deliveries', method: 'HeldDeliveryRepository.settle (a slot)', equality: ['slot'], index: 'slot' },
    { collection: 'held_slots', method: 'HeldDeliveryRepository.settle (remove a slot)', equality: ['_id'], index: '_id_' },
  ];

  readonly #held: Collection<HeldDoc>;
  readonly #slots: Collection<HeldSlotDoc>;

  constructor(db: Db) {
    this.#held = db.collection<HeldDoc>('held_deliveries');
    this.#slots = db.collection<HeldSlotDoc>('held_slots');
  }

  /** Records held deliveries (a record stored before is left as it is), then their slots; throws when any is not stored. */
  async hold(docs: readonly HeldDoc[]): Promise<void> {
    if (docs.length === 0) return;
    await insertAll(this.#held, docs, { allowExisting: true });
    const slots = new Map<string, HeldSlotDoc>();
    for (const d of docs) slots.set(d.slot, { _id: d.slot, subscription_id: d.subscription_id, at: heldSlot(d.subscription_id, d.emitted_at).at });
    await insertAll(this.#slots, [...slots.values()], { allowExisting: true });
  }

  /** How many deliveries the subscription holds. */
  count(subscriptionId: string): Promise<number> {
    return this.#held.countDocuments({ subscription_id: subscriptionId });
  }

  /** When the oldest delivery the subscription holds was held; absent when it holds none. */
  async oldestHeldAt(subscriptionId: string): Promise<Date | undefined> {
    let oldest: Date | undefined;
    for await (const d of this.#held.find({ subscription_id: subscriptionId }, { projection: { held_at: 1 } })) {
      if (!oldest || d.held_at < oldest) oldest = d.held_at;
    }
    return oldest;
  }

  /**
   * The subscription's held deliveries after `after`, oldest emission first, at most `limit`;
   * `next` is where the following page starts, absent when this one reached the end.
   */
  async page(subscriptionId: string, limit: number, after?: HeldCursor): Promise<{ docs: HeldDoc[]; next?: HeldCursor }> {
    const slots = (await this.#slots.find({ subscription_id: subscriptionId }).toArray())
      .filter((s) => !after || s.at.getTime() + HELD_SLOT_MS > after.at)
      .sort((a, b) => a.at.getTime() - b.at.getTime());
    const out: HeldDoc[] = [];
    for (const slot of slots) {
      const docs = (await this.#held.find({ slot: slot._id }).toArray())
        .filter((d) => !after || d.emitted_at.getTime() > after.at || (d.emitted_at.getTime() === after.at && d._id > after.id))
        .sort(emissionOrder);
      out.push(...docs.slice(0, limit - out.length));
      if (out.length >= limit) {
        const last = out[out.length - 1]!;
        return { docs: out, next: { at: last.emitted_at.getTime(), id: last._id } };
      }
    }
    return { docs: out };
  }

  /** Deletes held records by id (sent, failed or dropped); one already gone is fine. */
  async release(ids: readonly string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += DELETE_CONCURRENCY) {
      await Promise.all(ids.slice(i, i + DELETE_CONCURRENCY).map((id) => this.#held.deleteOne({ _id: id })));
    }
  }

  /** Deletes every delivery the subscription holds (it was disabled or deleted: they are cancelled); returns how many. */
  async dropAll(subscriptionId: string): Promise<number> {
    return (await this.#held.deleteMany({ subscription_id: subscriptionId })).deletedCount;
  }

  /** The subscriptions that hold deliveries, or held some and were not settled since. */
  async holding(): Promise<string[]> {
    const slots = await this.#slots.find({}, { projection: { subscription_id: 1 } }).toArray();
    return [...new Set(slots.map((s) => s.subscription_id))];
  }

  /**
   * Removes the subscription's slots that hold nothing; true when it then holds nothing at all.
   * A slot is removed before it is looked into again: a record written meanwhile either is seen
   * (its slot put back) or was written after, and its writer puts the slot back itself.
   */
  async settle(subscriptionId: string): Promise<boolean> {
    let empty = true;
    for (const slot of await this.#slots.find({ subscription_id: subscriptionId }).toArray()) {
      if (await this.#held.findOne({ slot: slot._id }, { projection: { _id: 1 } })) {
        empty = false;
        continue;
      }
      await this.#slots.deleteOne({ _id: slot._id });
      if (await this.#held.findOne({ slot: slot._id }, { projection: { _id: 1 } })) {
        await insertIfAbsent(this.#slots, slot);
        empty = false;
      }
    }
    return empty;
  }
}
