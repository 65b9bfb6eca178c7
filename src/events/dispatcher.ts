import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy } from '@temporalio/client';
import type { Client } from '@temporalio/client';
import type { Collection, Db } from 'mongodb';
import type { Logger } from '../logger';
import type { EventType } from '../http/schemas';
import { orderKey } from '../resources/repository';
import { SubscriptionRepository } from '../subscriptions/repository';
import type { DeliveryPolicy } from '../../workflows/retry-policy';
import { eventSearchAttributes } from '../../workflows/search-attributes';
import { eventWorkflowId } from '../../workflows/ids';
import type { eventWorkflow } from '../../workflows';
import { type OutboxEvent, type OutboxFlusher, type OutboxSource, newOutboxEvent } from './outbox';
import { type EventDoc, EventRepository } from './repository';

export interface DispatcherDeps {
  db: Db;
  /** Resolves to a connected Temporal client; rejects while Temporal is unreachable. */
  temporal: () => Promise<Client>;
  taskQueue: string;
  policy: DeliveryPolicy;
  logger: Logger;
}

interface OutboxHolder {
  _id: string;
  outbox?: OutboxEvent[];
}

/**
 * A note that an event may still need dispatching: written before the write that creates the
 * event, deleted once its workflow is started. The relay reads only these (a small collection,
 * keyed by event id) instead of scanning outboxes and the event log, which FerretDB v1 can only
 * do by reading every document.
 */
export interface DispatchNote {
  /** The event id. */
  _id: string;
  /** Where the event waits until it is logged; absent for events logged directly (test events). */
  source?: OutboxSource;
  created_at: Date;
}

/**
 * Moves events from outboxes into the event log and starts one workflow per event.
 * Every step is idempotent (insert-once, workflow id from event id, notes keyed by event id),
 * so the API's immediate flush and the relay's retries may overlap.
 */
export class EventDispatcher implements OutboxFlusher {
  readonly events: EventRepository;
  readonly notes: Collection<DispatchNote>;
  private readonly subscriptions: SubscriptionRepository;

  constructor(private readonly deps: DispatcherDeps) {
    this.events = new EventRepository(deps.db);
    this.notes = deps.db.collection<DispatchNote>('dispatch_notes');
    this.subscriptions = new SubscriptionRepository(deps.db);
  }

  async announce(events: readonly OutboxEvent[], source?: OutboxSource): Promise<void> {
    const at = new Date();
    for (const event of events) {
      await this.notes.updateOne({ _id: event.id }, { $set: { ...(source ? { source } : {}), created_at: at } }, { upsert: true });
    }
  }

  async withdraw(events: readonly OutboxEvent[]): Promise<void> {
    for (const event of events) await this.notes.deleteOne({ _id: event.id });
  }

  /**
   * Logs and dispatches events just written into `source`'s outbox. The outbox keeps them: no
   * write to the source, which in FerretDB v1 costs a scan of its collection.
   */
  async flush(source: OutboxSource, events: readonly OutboxEvent[]): Promise<void> {
    for (const event of events) await this.dispatch(event.id, await this.log(event, { source }));
  }

  /**
   * The relay's flush: the events among `eventIds` that `source`'s outbox holds (a write that
   * never happened left none) are flushed. Returns their ids.
   */
  private async flushNoted(source: OutboxSource, eventIds: readonly string[]): Promise<string[]> {
    const holder = await this.deps.db
      .collection<OutboxHolder>(source.collection)
      .findOne({ _id: orderKey(source.id) }, { projection: { outbox: 1 } });
    const wanted = new Set(eventIds);
    const written = (holder?.outbox ?? []).filter((e) => wanted.has(e.id));
    await this.flush(source, written);
    return written.map((e) => e.id);
  }

  /**
   * Logs an event that has no source document (test events) and dispatches it. Logged before
   * dispatch, so a Temporal outage only delays it: the relay dispatches it later.
   */
  async emit(
    type: EventType,
    data: Record<string, unknown>,
    target: { ownerId: string; subscriptionIds: string[] },
  ): Promise<EventDoc> {
    const event = newOutboxEvent(type, data);
    await this.announce([event]);
    const doc = await this.log(event, { owner_id: target.ownerId, subscription_ids: target.subscriptionIds });
    await this.dispatch(doc._id, doc).catch((err: unknown) => this.deps.logger.warn({ err, eventId: doc._id }, 'dispatch deferred to the relay'));
    return doc;
  }

  /** Writes the event to the log with its fan-out snapshot: active subscribers at emit time. */
  private async log(event: OutboxEvent, extra: Partial<EventDoc>): Promise<EventDoc> {
    const subscriptionIds =
      extra.subscription_ids ??
      (
        await this.subscriptions.collection
          .find({ events: event.type, status: 'active', created_at: { $lte: event.created_at } }, { projection: { _id: 1 } })
          .toArray()
      ).map((s) => s._id);
    const doc: EventDoc = {
      _id: event.id,
      type: event.type,
      data: event.data,
      created_at: event.created_at,
      ...extra,
      subscription_ids: subscriptionIds,
    };
    await this.events.insertOnce(doc);
    return doc;
  }

  /**
   * Starts the event's workflow (a second start for the same event is a no-op), then deletes its
   * dispatch note: no note means dispatched. Callers that just logged the event pass it.
   */
  async dispatch(eventId: string, logged?: Pick<EventDoc, 'type' | 'subscription_ids'>): Promise<void> {
    const event = logged ?? (await this.events.find(eventId));
    if (!event) throw new Error(`event ${eventId} is not logged`);
    const type = event.type;
    const client = await this.deps.temporal();
    try {
      await client.workflow.start<typeof eventWorkflow>('eventWorkflow', {
        workflowId: eventWorkflowId(eventId),
        taskQueue: this.deps.taskQueue,
        // The run closes once its deliveries have started: a later re-dispatch must not start another.
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        // The targets ride along, so the workflow starts its deliveries without reading the event.
        args: [{ eventId, policy: this.deps.policy, targets: { type, subscriptionIds: event.subscription_ids } }],
        typedSearchAttributes: eventSearchAttributes({ eventId, eventType: type }),
      });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
    await this.notes.deleteOne({ _id: eventId });
  }

  /**
   * One relay pass over the dispatch notes older than `graceMs` (younger ones belong to requests
   * still in flight): flushes their events from the outboxes they name, dispatches the ones
   * already logged, and drops notes whose write never happened once they are `abandonMs` old.
   * Bounded per pass; returns what it did.
   */
  async relayOnce(opts: { graceMs: number; abandonMs: number; batch: number }): Promise<{ flushed: number; dispatched: number; abandoned: number }> {
    const now = Date.now();
    const notes = await this.notes
      .find({ created_at: { $lt: new Date(now - opts.graceMs) } })
      .limit(opts.batch)
      .toArray();
    const bySource = new Map<string, { source: OutboxSource; ids: string[] }>();
    for (const n of notes) {
      if (!n.source) continue;
      const key = `${n.source.collection}/${n.source.id}`;
      const entry = bySource.get(key) ?? { source: n.source, ids: [] };
      entry.ids.push(n._id);
      bySource.set(key, entry);
    }
    const done = new Set<string>();
    for (const { source, ids } of bySource.values()) for (const id of await this.flushNoted(source, ids)) done.add(id);
    let dispatched = done.size;
    let abandoned = 0;
    for (const note of notes) {
      if (done.has(note._id)) continue;
      const event = await this.events.find(note._id);
      if (event) {
        // Logged, then the dispatch failed (e.g. Temporal was down): start it now.
        await this.dispatch(event._id, event);
        dispatched++;
      } else if (note.created_at.getTime() < now - opts.abandonMs) {
        // Announced, never logged, and long past any request: the write it announced did not happen.
        await this.notes.deleteOne({ _id: note._id });
        abandoned++;
      }
    }
    return { flushed: bySource.size, dispatched, abandoned };
  }
}
