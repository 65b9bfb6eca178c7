import { createHash } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import { insertAll } from '../db/insert-all';
import { insertIfAbsent } from '../db/insert-if-absent';
import type { IndexSpec, QueryShape } from '../db/query-shapes';
import { eventWorkflowId, seriesId } from '../../workflows/ids';
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
  /** `<subscription id>@<hour of at>`: a page reads an hour's slots by this equality, from its cursor on. */
  hour: string;
}

/**
 * A marker of a subscription that holds deliveries (collection `held_marks`, `_id` =
 * `<subscription id>@h<hour>`): the sweep reads these, not the records; the oldest `from` is
 * where a drain's first page starts. Insert-only, one per hour a hold's oldest emission is in (a
 * `$min` update races on FerretDB v1), written before and after each hold, removed by `settle`
 * once nothing is held.
 */
export interface HeldMarkDoc {
  _id: string;
  subscription_id: string;
  /** Start of the hour of the oldest emission of a hold. */
  from: Date;
}

/** A settle under way (collection `held_settling`, `_id` = the subscription): left by a crash, the sweep settles again. */
export interface HeldSettlingDoc {
  _id: string;
  at: Date;
}

/** Who acts on a held record: the drain (starts or fails it) or the hold sweep's expiry (fails it). */
export type HeldActor = 'drain' | 'expiry';

/** Which of drain and expiry acts on one record (collection `held_claims`, `_id` = the record): the first insert wins. */
export interface HeldClaimDoc {
  _id: string;
  subscription_id: string;
  by: HeldActor;
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

/** Width of the bucket a page reads slots by. */
export const HELD_HOUR_MS = 3_600_000;

/** Most hours one page walks: past them it returns where it stopped, with no more deliveries (an empty hour costs one read). */
const HOURS_PER_PAGE = 48;

/** How many single-document writes run at once: FerretDB v1 pushes no `$in` down, so each is its own `_id` lookup. */
const WRITE_CONCURRENCY = 8;

/** Runs `fn` over `items`, at most WRITE_CONCURRENCY at a time. */
async function eachLimited<T>(items: readonly T[], fn: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += WRITE_CONCURRENCY) await Promise.all(items.slice(i, i + WRITE_CONCURRENCY).map(fn));
}

/** The record id of `subscriptionId`'s delivery of `eventId`, held by the run `origin`. */
export function heldId(subscriptionId: string, eventId: string, origin: string): string {
  return `held_${createHash('sha256').update(`${subscriptionId}\n${eventId}\n${origin}`).digest('hex').slice(0, 32)}`;
}

/** The record id of `subscriptionId`'s delivery of `eventId` when the event's own workflow held it (not a drained run). */
export function firstHeldId(subscriptionId: string, eventId: string): string {
  return heldId(subscriptionId, eventId, eventWorkflowId(eventId));
}

/** The slot of a delivery of an event emitted at `emittedAt` to `subscriptionId`. */
export function heldSlot(subscriptionId: string, emittedAt: Date): { id: string; at: Date; hour: string } {
  const minute = Math.floor(emittedAt.getTime() / HELD_SLOT_MS);
  return { id: `${subscriptionId}@${minute}`, at: new Date(minute * HELD_SLOT_MS), hour: hourKey(subscriptionId, hourOf(emittedAt.getTime())) };
}

/** The hour (since the epoch) of `at` (epoch ms). */
const hourOf = (at: number): number => Math.floor(at / HELD_HOUR_MS);

/** The bucket of `subscriptionId`'s slots in `hour`. */
const hourKey = (subscriptionId: string, hour: number): string => `${subscriptionId}@h${hour}`;

/** Whether `origin` (a run's top workflow id) is a delivery a drain started from a held record (workflows/ids.ts heldDeliveryWorkflowId). */
export function isHeldDeliveryRun(origin: string | undefined): boolean {
  return origin?.includes('/redelivery/held_') ?? false;
}

/** Whether a held record is its event's own delivery (the emission's run, or a drained run of it): only that keeps its key's order; a held redelivery does not. */
export function isOwnDelivery(doc: Pick<HeldDoc, 'origin' | 'event_id'>): boolean {
  return doc.origin === eventWorkflowId(doc.event_id) || isHeldDeliveryRun(doc.origin);
}

/**
 * The failed attempt a delivery a drain started (its run `origin`) logs when its event is gone
 * (deleted by retention while it was held); undefined for any other run, which just cancels.
 */
export function eventGoneAttempt(origin: string | undefined, input: { eventId: string; subscriptionId: string; attempt: number }, url: string, at: Date): AttemptDoc | undefined {
  if (origin === undefined || !isHeldDeliveryRun(origin)) return undefined;
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

/** The earliest hour start of `docs`' emissions, per subscription. */
function oldestHours(docs: ReadonlyArray<Pick<HeldDoc, 'subscription_id' | 'emitted_at'>>): Map<string, Date> {
  const out = new Map<string, Date>();
  for (const d of docs) {
    const from = new Date(hourOf(d.emitted_at.getTime()) * HELD_HOUR_MS);
    const known = out.get(d.subscription_id);
    if (!known || from < known) out.set(d.subscription_id, from);
  }
  return out;
}

/** The slot documents of `docs`, one per slot. */
function slotsOf(docs: ReadonlyArray<Pick<HeldDoc, 'subscription_id' | 'emitted_at'>>): HeldSlotDoc[] {
  const slots = new Map<string, HeldSlotDoc>();
  for (const d of docs) {
    const slot = heldSlot(d.subscription_id, d.emitted_at);
    slots.set(slot.id, { _id: slot.id, subscription_id: d.subscription_id, at: slot.at, hour: slot.hour });
  }
  return [...slots.values()];
}

/**
 * The deliveries paused subscriptions hold. Every read is a top-level equality read (FerretDB v1
 * pushes nothing else down, and sorts nowhere but in memory): the holding subscriptions are their
 * markers, a page reads an hour's slots and a whole minute slot's records from its cursor on, so
 * it costs its deliveries plus the rest of the minute slots they are in, and one read per hour it
 * walks (at most HOURS_PER_PAGE, empty ones too): bounded whatever the pause's length, not exactly
 * a page. The order is made here.
 *
 * A crash at any write leaves every record findable: a hold writes the marker, the records, their
 * slots, then the marker again; only `settle` removes markers and slots, after a count by
 * subscription found nothing, behind a `held_settling` note that the sweep finishes if it crashes.
 */
export class HeldDeliveryRepository {
  static readonly indexes: readonly IndexSpec[] = [
    { collection: 'held_deliveries', name: 'subscription', key: { subscription_id: 1 } },
    { collection: 'held_deliveries', name: 'slot', key: { slot: 1 } },
    { collection: 'held_slots', name: 'subscription', key: { subscription_id: 1 } },
    { collection: 'held_slots', name: 'hour', key: { hour: 1 } },
    { collection: 'held_claims', name: 'subscription', key: { subscription_id: 1 } },
    { collection: 'held_marks', name: 'subscription', key: { subscription_id: 1 } },
  ];

  static readonly queryShapes: readonly QueryShape[] = [
    { collection: 'held_marks', method: 'HeldDeliveryRepository.hold (marker)', equality: ['_id'], index: '_id_' },
    { collection: 'held_deliveries', method: 'HeldDeliveryRepository.hold', equality: ['_id'], index: '_id_' },
    { collection: 'held_slots', method: 'HeldDeliveryRepository.hold', equality: ['_id'], index: '_id_' },
    { collection: 'held_deliveries', method: 'HeldDeliveryRepository.count', equality: ['subscription_id'], index: 'subscription' },
    { collection: 'held_deliveries', method: 'HeldDeliveryRepository.oldestHeldAt', equality: ['subscription_id'], index: 'subscription' },
    { collection: 'held_marks', method: 'HeldDeliveryRepository.page (first)', equality: ['subscription_id'], index: 'subscription' },
    { collection: 'held_slots', method: 'HeldDeliveryRepository.page (an hour)', equality: ['hour'], index: 'hour' },
    { collection: 'held_deliveries', method: 'HeldDeliveryRepository.page (a slot)', equality: ['slot'], index: 'slot' },
    { collection: 'held_deliveries', method: 'HeldDeliveryRepository.release', equality: ['_id'], index: '_id_' },
    { collection: 'held_deliveries', method: 'HeldDeliveryRepository.has', equality: ['_id'], index: '_id_' },
    { collection: 'held_deliveries', method: 'HeldDeliveryRepository.dropAll', equality: ['subscription_id'], index: 'subscription' },
    { collection: 'held_marks', method: 'HeldDeliveryRepository.holding', equality: [], index: '_id_' },
    { collection: 'held_settling', method: 'HeldDeliveryRepository.holding (settles a crash left)', equality: [], index: '_id_' },
    { collection: 'held_settling', method: 'HeldDeliveryRepository.settle (note)', equality: ['_id'], index: '_id_' },
    { collection: 'held_slots', method: 'HeldDeliveryRepository.settle (slots)', equality: ['subscription_id'], index: 'subscription' },
    { collection: 'held_claims', method: 'HeldDeliveryRepository.settle (claims)', equality: ['subscription_id'], index: 'subscription' },
    { collection: 'held_marks', method: 'HeldDeliveryRepository.settle (markers)', equality: ['subscription_id'], index: 'subscription' },
    { collection: 'held_deliveries', method: 'HeldDeliveryRepository.settle (repair)', equality: ['subscription_id'], index: 'subscription' },
    { collection: 'held_claims', method: 'HeldDeliveryRepository.claim', equality: ['_id'], index: '_id_' },
    { collection: 'held_claims', method: 'HeldDeliveryRepository.unclaim', equality: ['_id', 'by'], index: '_id_' },
  ];

  readonly #held: Collection<HeldDoc>;
  readonly #slots: Collection<HeldSlotDoc>;
  readonly #marks: Collection<HeldMarkDoc>;
  readonly #settling: Collection<HeldSettlingDoc>;
  readonly #claims: Collection<HeldClaimDoc>;

  constructor(
    db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.#held = db.collection<HeldDoc>('held_deliveries');
    this.#slots = db.collection<HeldSlotDoc>('held_slots');
    this.#marks = db.collection<HeldMarkDoc>('held_marks');
    this.#settling = db.collection<HeldSettlingDoc>('held_settling');
    this.#claims = db.collection<HeldClaimDoc>('held_claims');
  }

  /** Records held deliveries (a record stored before is left as it is) and their slots; throws when any is not stored. */
  async hold(docs: readonly HeldDoc[]): Promise<void> {
    if (docs.length === 0) return;
    const from = oldestHours(docs);
    // Marker first: a crash after the records leaves them marked, so the sweep reads them.
    await this.#mark(from);
    await insertAll(this.#held, docs, { allowExisting: true });
    await insertAll(this.#slots, slotsOf(docs), { allowExisting: true });
    // Marker again: a settle that removed it before the records were stored did not see them.
    await this.#mark(from);
  }

  /** Marks the hour given for each subscription: an insert that finds it there already leaves it. */
  async #mark(from: ReadonlyMap<string, Date>): Promise<void> {
    await Promise.all([...from].map(([subscriptionId, at]) => insertIfAbsent(this.#marks, { _id: hourKey(subscriptionId, hourOf(at.getTime())), subscription_id: subscriptionId, from: at })));
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
   * The subscription's held deliveries after `after` (absent: from its oldest marker's hour), oldest
   * emission first, at most `limit`; `next` is where the following page starts, absent when this
   * one reached the end. It reads the hours from the cursor's on, at most HOURS_PER_PAGE of them,
   * and the whole minute slots it passes: bounded, never the whole pause.
   */
  async page(subscriptionId: string, limit: number, after?: HeldCursor): Promise<{ docs: HeldDoc[]; next?: HeldCursor }> {
    let first: number;
    if (after) first = hourOf(after.at);
    else {
      // The oldest of its markers: one per hour holds began in, so at most one per hour of the pause.
      const marks = await this.#marks.find({ subscription_id: subscriptionId }, { projection: { from: 1 } }).toArray();
      if (marks.length === 0) return { docs: [] };
      first = hourOf(Math.min(...marks.map((m) => m.from.getTime())));
    }
    // The next hour too: an event stamped by a clock a little ahead is still read.
    const end = hourOf(this.now()) + 1;
    const last = Math.min(end, first + HOURS_PER_PAGE - 1);
    const out: HeldDoc[] = [];
    for (let hour = first; hour <= last; hour++) {
      const slots = (await this.#slots.find({ hour: hourKey(subscriptionId, hour) }).toArray())
        .filter((s) => !after || s.at.getTime() + HELD_SLOT_MS > after.at)
        .sort((a, b) => a.at.getTime() - b.at.getTime());
      for (const slot of slots) {
        const docs = (await this.#held.find({ slot: slot._id }).toArray())
          .filter((d) => !after || d.emitted_at.getTime() > after.at || (d.emitted_at.getTime() === after.at && d._id > after.id))
          .sort(emissionOrder);
        out.push(...docs.slice(0, limit - out.length));
        if (out.length >= limit) {
          const lastDoc = out[out.length - 1]!;
          return { docs: out, next: { at: lastDoc.emitted_at.getTime(), id: lastDoc._id } };
        }
      }
    }
    // Stopped short of now: the next page goes on from the end of the last hour read (no id sorts after U+FFFF).
    if (last < end) return { docs: out, next: { at: (last + 1) * HELD_HOUR_MS - 1, id: '\uffff' } };
    return { docs: out };
  }

  /** Whether the record `id` is still held (not drained, expired or dropped). */
  async has(id: string): Promise<boolean> {
    return (await this.#held.countDocuments({ _id: id }, { limit: 1 })) > 0;
  }

  /** Deletes held records by id (sent, failed or dropped); one already gone is fine. */
  async release(ids: readonly string[]): Promise<void> {
    await eachLimited(ids, async (id) => void (await this.#held.deleteOne({ _id: id })));
  }

  /** Deletes every delivery the subscription holds (it was disabled or deleted: they are cancelled); returns how many. */
  async dropAll(subscriptionId: string): Promise<number> {
    return (await this.#held.deleteMany({ subscription_id: subscriptionId })).deletedCount;
  }

  /** The subscriptions that hold deliveries (their markers), and those whose settle a crash interrupted (`settling`). */
  async holding(): Promise<Array<{ subscriptionId: string; settling: boolean }>> {
    const [marks, settling] = await Promise.all([this.#marks.find({}, { projection: { subscription_id: 1 } }).toArray(), this.#settling.find({}, { projection: { _id: 1 } }).toArray()]);
    const noted = new Set(settling.map((d) => d._id));
    return [...new Set([...marks.map((d) => d.subscription_id), ...noted])].map((subscriptionId) => ({ subscriptionId, settling: noted.has(subscriptionId) }));
  }

  /**
   * Ends the subscription's hold when it holds nothing (true): its note, slots, claims, markers
   * go. Otherwise false; with `repair` (a drain's end: what is left was held behind its cursor;
   * the sweep, after a crash mid-settle) the slots are rebuilt from the records, the oldest one's
   * hour marked and then the note removed, so a drain or expiry from the start reads them.
   */
  async settle(subscriptionId: string, opts: { repair: boolean } = { repair: true }): Promise<boolean> {
    if ((await this.count(subscriptionId)) > 0) {
      if (opts.repair) {
        await this.#repair(subscriptionId);
        // Repaired: the sweep need not repair again each pass.
        await this.#settling.deleteOne({ _id: subscriptionId });
      }
      return false;
    }
    // Noted first: a crash from here on leaves the note, and the sweep settles again (its count finds any record).
    await insertIfAbsent(this.#settling, { _id: subscriptionId, at: new Date(this.now()) });
    await this.#slots.deleteMany({ subscription_id: subscriptionId });
    await this.#claims.deleteMany({ subscription_id: subscriptionId });
    await this.#marks.deleteMany({ subscription_id: subscriptionId });
    // Held meanwhile (a round that read the pause before a resume): stored before this count, or its hold's last marker write comes after.
    const again = (await this.count(subscriptionId)) > 0;
    if (again) await this.#repair(subscriptionId);
    // Last: until here a crash leaves the note.
    await this.#settling.deleteOne({ _id: subscriptionId });
    return !again;
  }

  /**
   * Rebuilds the slots of what the subscription holds, and its marker: slots first cleared (a
   * crash then leaves the records and the marker; the settle's retry, an activity, or the
   * sweep's next pass rebuilds), so a drain from the start reads no emptied slot.
   */
  async #repair(subscriptionId: string): Promise<void> {
    await this.#slots.deleteMany({ subscription_id: subscriptionId });
    const docs = await this.#held.find({ subscription_id: subscriptionId }, { projection: { subscription_id: 1, emitted_at: 1 } }).toArray();
    if (docs.length === 0) return;
    await this.#mark(oldestHours(docs));
    await insertAll(this.#slots, slotsOf(docs), { allowExisting: true });
  }

  /**
   * Claims held records for `by`; returns the ids it may act on: claimed now, or by its own
   * earlier try. A record the other actor claimed first is left to it, so the drain never starts
   * what expiry fails, nor expiry fails what the drain started. One insert per record decides:
   * FerretDB v1 stops a batch at its first duplicate, so a batch's read-back cannot tell whose
   * the rest are.
   */
  async claim(docs: ReadonlyArray<Pick<HeldDoc, '_id' | 'subscription_id'>>, by: HeldActor): Promise<Set<string>> {
    const at = new Date(this.now());
    const mine = new Set<string>();
    await eachLimited(docs, async (d) => {
      if (await insertIfAbsent(this.#claims, { _id: d._id, subscription_id: d.subscription_id, by, at })) mine.add(d._id);
      else if ((await this.#claims.findOne({ _id: d._id }, { projection: { by: 1 } }))?.by === by) mine.add(d._id);
    });
    return mine;
  }

  /** Gives up `by`'s claims of `ids` (records it will not act on now): the other actor may claim them. */
  async unclaim(ids: readonly string[], by: HeldActor): Promise<void> {
    await eachLimited(ids, async (id) => void (await this.#claims.deleteOne({ _id: id, by })));
  }
}
