import { createHash } from 'node:crypto';
import { insertIfAbsent } from '../db/insert-if-absent';
import type { Collection, Db } from 'mongodb';
import type { IndexSpec, QueryShape } from '../db/query-shapes';
import type { Alert } from '../contract/types';

export interface AlertDoc {
  _id: string;
  kind: Alert['kind'];
  event_id?: string;
  subscription_id: string;
  message: string;
  created_at: Date;
  /** Set once ADMIN_ALERT_URL acknowledged it. */
  notified_at?: Date;
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

/** Administrator alerts. */
export class AlertRepository {
  static readonly indexes: readonly IndexSpec[] = [];

  static readonly queryShapes: readonly QueryShape[] = [
    { collection: 'alerts', method: 'AlertRepository.raise', equality: ['_id'], index: '_id_' },
    { collection: 'alerts', method: 'AlertRepository.markNotified', equality: ['_id'], index: '_id_' },
    {
      collection: 'alerts',
      method: 'AlertRepository.list',
      equality: [],
      range: ['created_at', '_id'],
      sort: { created_at: -1, _id: -1 },
      unindexed: 'no index on created_at: every alert is read and sorted in memory',
    },
    { collection: 'alerts', method: 'AlertRepository.find', equality: ['_id'], index: '_id_' },
  ];

  readonly #collection: Collection<AlertDoc>;

  constructor(db: Db) {
    this.#collection = db.collection<AlertDoc>('alerts');
  }

  /** Stores the alert unless it exists; returns the stored one. */
  /** Stores the alert unless stored already; the stored one, and whether this call stored it. */
  async raise(doc: AlertDoc): Promise<{ stored: AlertDoc; created: boolean }> {
    const created = await insertIfAbsent(this.#collection, doc);
    return { stored: (await this.#collection.findOne({ _id: doc._id }))!, created };
  }

  async markNotified(id: string, at = new Date()): Promise<void> {
    await this.#collection.updateOne({ _id: id }, { $set: { notified_at: at } });
  }

  /** Newest first, by id (ids are not time-sortable, so created_at then id). */
  async list(limit: number, after?: AlertDoc): Promise<AlertDoc[]> {
    const filter = after
      ? { $or: [{ created_at: { $lt: after.created_at } }, { created_at: after.created_at, _id: { $lt: after._id } }] }
      : {};
    return this.#collection.find(filter).sort({ created_at: -1, _id: -1 }).limit(limit).toArray();
  }

  async find(id: string): Promise<AlertDoc | undefined> {
    return (await this.#collection.findOne({ _id: id })) ?? undefined;
  }
}
