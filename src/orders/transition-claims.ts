import type { Collection, Db } from 'mongodb';
import { insertIfAbsent } from '../db/insert-if-absent';
import type { IndexSpec, QueryShape } from '../db/query-shapes';
import { type Expiring, Timeline, timelineShapes } from '../db/timeline';

/**
 * A claim on one place of an order's history: the status change that inserts it is the only one
 * that may write that place. An insert is the only atomic conditional write FerretDB v1 has (its
 * updates read, then write the whole document back, so two conditional updates can both land).
 */
interface TransitionClaimDoc {
  /** `order:<id>#<seq>`, or `order:<id>#<seq>.<generation>` once the claims before it went stale. */
  _id: string;
  /** The event of the change that claimed it: in the order's outbox once the change is written. */
  event_id: string;
  /** When it was claimed (the claimer's clock): retention deletes claims by its 10-second bucket. */
  at: Date;
  /** Timeline tag and tenth of `at`, added on insert. */
  tl?: string[];
  tl_tenth?: number;
}

/** A claim as read back: whose it is and since when. */
export type TransitionClaim = Pick<TransitionClaimDoc, 'event_id' | 'at'>;

const listsOf = (): string[] => ['all'];

/** The id of generation `generation` of the claim on place `seq` of order `orderId` (generation 0 has no suffix). */
export function claimId(orderId: number, seq: number, generation: number): string {
  return generation === 0 ? `order:${orderId}#${seq}` : `order:${orderId}#${seq}.${generation}`;
}

/** The `order_claims` collection: insert-only claims that make concurrent status changes of one order exclusive. */
export class TransitionClaims {
  static readonly indexes: readonly IndexSpec[] = [
    // Retention deletes one claim-time bucket at a time by its tag (src/db/timeline.ts).
    { collection: 'order_claims', name: 'timeline', key: { tl: 1 } },
  ];

  static readonly queryShapes: readonly QueryShape[] = [
    { collection: 'order_claims', method: 'TransitionClaims.take', equality: ['_id'], index: '_id_' },
    { collection: 'order_claims', method: 'TransitionClaims.holder', equality: ['_id'], index: '_id_' },
    ...timelineShapes('order_claims', 'at', { list: [], expire: 'TransitionClaims.aged.expire' }),
  ];

  readonly #collection: Collection<TransitionClaimDoc>;
  readonly #timeline: Timeline;
  /** Claims made before a date, for retention: an order's later changes claim later places, so an old claim is never asked again. */
  readonly aged: Expiring;

  constructor(db: Db) {
    this.#collection = db.collection<TransitionClaimDoc>('order_claims');
    this.#timeline = new Timeline(db, 'order_claims');
    this.aged = { expire: (before, maxBuckets, maxDocs) => this.#timeline.expire(this.#collection, 'all', before, maxBuckets, maxDocs) };
  }

  /** Claims `id` for the change that emits `eventId`; true when this call took it, false when someone holds it. */
  async take(id: string, eventId: string, at: Date): Promise<boolean> {
    const [listed] = await this.#timeline.listed([{ _id: id, event_id: eventId, at }], listsOf, (d) => d.at);
    return insertIfAbsent(this.#collection, listed!);
  }

  /** Who holds claim `id` (undefined: nobody, e.g. retention deleted it). */
  async holder(id: string): Promise<TransitionClaim | undefined> {
    return (await this.#collection.findOne({ _id: id }, { projection: { _id: 0, event_id: 1, at: 1 } })) ?? undefined;
  }
}
