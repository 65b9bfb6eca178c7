import { createHash } from 'node:crypto';
import { insertIfAbsent } from '../db/insert-if-absent';
import type { Collection, Db } from 'mongodb';
import type { IndexSpec, QueryShape } from '../db/query-shapes';
import { Timeline, timelineShapes, withoutTimelineFields } from '../db/timeline';
import type { Alert } from '../contract/types';

export interface AlertDoc {
  _id: string;
  kind: Alert['kind'];
  event_id?: string;
  subscription_id: string;
  /** The subscription's owner, who sees the alert too (absent: administrators only). */
  owner_id?: string;
  message: string;
  created_at: Date;
  /** Set once ADMIN_ALERT_URL acknowledged it. */
  notified_at?: Date;
  /** Its place in its owner's hourly budget of POSTs (src/alerts/admin-budget.ts), kept so a retry POSTs the same. */
  admin_slot?: { window: number; index: number; send: boolean; limit_reached: boolean; suppressed: number };
}

/** One alert per (kind, subscription, event, series): raising it twice is a no-op. */
export function alertId(kind: string, subscriptionId: string, key: string): string {
  const digest = createHash('sha256').update(`${kind}|${subscriptionId}|${key}`).digest('base64url').replace(/[-_]/g, '');
  return `alr_${digest.slice(0, 24)}`;
}

export function toAlert(doc: AlertDoc): Alert {
  return {
    id: doc._id,
    kind: doc.kind,
    ...(doc.event_id ? { event_id: doc.event_id } : {}),
    subscription_id: doc.subscription_id,
    message: doc.message,
    created_at: doc.created_at.toISOString(),
  };
}

/** The lists an alert is in, newest first: every alert (administrators), and its owner's. */
function listsOf(doc: Pick<AlertDoc, 'owner_id'>): string[] {
  return doc.owner_id === undefined ? ['all'] : ['all', ownerList(doc.owner_id)];
}

function ownerList(ownerId: string): string {
  return `o:${ownerId}`;
}

/** An alert as stored: with the timeline tag of the list. */
type StoredAlert = AlertDoc & { tl?: string[]; tl_tenth?: number };

/** Alerts: every one for administrators, each also for the owner of the subscription concerned. */
export class AlertRepository {
  static readonly indexes: readonly IndexSpec[] = [
    // The list: one bucket, newest first (src/db/timeline.ts).
    { collection: 'alerts', name: 'timeline', key: { tl: 1, created_at: -1, _id: -1 } },
  ];

  static readonly queryShapes: readonly QueryShape[] = [
    { collection: 'alerts', method: 'AlertRepository.tagUnlisted', equality: [], range: ['tl'], index: 'timeline' },
    { collection: 'alerts', method: 'AlertRepository.raise', equality: ['_id'], index: '_id_' },
    { collection: 'alerts', method: 'AlertRepository.markNotified', equality: ['_id'], index: '_id_' },
    { collection: 'alerts', method: 'AlertRepository.setSlot', equality: ['_id'], index: '_id_' },
    { collection: 'alerts', method: 'AlertRepository.find', equality: ['_id'], index: '_id_' },
    // list reads the timeline.
    ...timelineShapes('alerts', 'created_at', { list: ['AlertRepository.list'] }),
  ];

  readonly #collection: Collection<StoredAlert>;
  readonly #timeline: Timeline;

  constructor(db: Db) {
    this.#collection = db.collection<StoredAlert>('alerts');
    this.#timeline = new Timeline(db, 'alerts');
  }

  /** Stores the alert unless it exists; returns the stored one. */
  /** Stores the alert unless stored already; the stored one, and whether this call stored it. */
  async raise(doc: AlertDoc): Promise<{ stored: AlertDoc; created: boolean }> {
    const [stored] = await this.#timeline.listed([doc], listsOf, (d) => d.created_at);
    const created = await insertIfAbsent(this.#collection, stored!);
    return { stored: (await this.#collection.findOne({ _id: doc._id }, { projection: withoutTimelineFields }))!, created };
  }

  async markNotified(id: string, at = new Date()): Promise<void> {
    await this.#collection.updateOne({ _id: id }, { $set: { notified_at: at } });
  }

  /** Records the budget slot the alert took. */
  async setSlot(id: string, slot: NonNullable<AlertDoc['admin_slot']>): Promise<void> {
    await this.#collection.updateOne({ _id: id }, { $set: { admin_slot: slot } });
  }

  /** Newest first, by id (ids are not time-sortable, so created_at then id); `ownerId`'s only when given. */
  list(limit: number, after?: AlertDoc, ownerId?: string): Promise<AlertDoc[]> {
    return this.#timeline.page(this.#collection, ownerId === undefined ? 'all' : ownerList(ownerId), {
      timeField: 'created_at',
      limit,
      projection: withoutTimelineFields,
      ...(after ? { after: { at: after.created_at, id: after._id } } : {}),
    });
  }

  async find(id: string): Promise<AlertDoc | undefined> {
    return (await this.#collection.findOne({ _id: id }, { projection: withoutTimelineFields })) ?? undefined;
  }

  /** Tags what was stored before this collection had lists (see Timeline.backfill); once per database. */
  tagUnlisted(): Promise<number> {
    return this.#timeline.backfill(this.#collection, 'created_at', listsOf);
  }
}

/** An operational webhook sent at most once per id (e.g. per deprecated version per day). */
export interface NoticeDoc {
  /** The `webhook-id` of the operational webhook. */
  _id: string;
  created_at: Date;
  /** Set once ADMIN_ALERT_URL acknowledged it (or, without one, once logged). */
  notified_at?: Date;
}

/** Which periodic operational webhooks were sent: one document per webhook id. */
export class OperationalNotices {
  static readonly indexes: readonly IndexSpec[] = [];

  static readonly queryShapes: readonly QueryShape[] = [
    { collection: 'notices', method: 'OperationalNotices.claim', equality: ['_id'], index: '_id_' },
    { collection: 'notices', method: 'OperationalNotices.markNotified', equality: ['_id'], index: '_id_' },
  ];

  readonly #collection: Collection<NoticeDoc>;

  constructor(db: Db) {
    this.#collection = db.collection<NoticeDoc>('notices');
  }

  /** Stores the notice unless stored already; the stored one (`notified_at` tells whether it went out). */
  async claim(id: string, at: Date): Promise<NoticeDoc> {
    await insertIfAbsent(this.#collection, { _id: id, created_at: at });
    return (await this.#collection.findOne({ _id: id }))!;
  }

  async markNotified(id: string, at: Date): Promise<void> {
    await this.#collection.updateOne({ _id: id }, { $set: { notified_at: at } });
  }
}
