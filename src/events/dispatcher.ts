import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { Client } from '@temporalio/client';
import type { Db } from 'mongodb';
import type { Logger } from '../logger';
import type { EventType } from '../http/schemas';
import { SubscriptionRepository } from '../subscriptions/repository';
import type { DeliveryPolicy } from '../../workflows/retry-policy';
import { eventIdKey, eventTypeKey } from '../../workflows/search-attributes';
import { eventWorkflowId } from '../../workflows/ids';
import type { eventWorkflow } from '../../workflows';
import { type OutboxEvent, type OutboxFlusher, newOutboxEvent } from './outbox';
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
  _id: number;
  outbox?: OutboxEvent[];
}

/**
 * Moves events from outboxes into the event log and starts one workflow per event.
 * Every step is idempotent (insert-once, pull exact entries, workflow id from event id),
 * so the API's immediate flush and the relay's retries may overlap safely.
 */
export class EventDispatcher implements OutboxFlusher {
  readonly events: EventRepository;
  private readonly subscriptions: SubscriptionRepository;

  constructor(private readonly deps: DispatcherDeps) {
    this.events = new EventRepository(deps.db);
    this.subscriptions = new SubscriptionRepository(deps.db);
  }

  /** Logs and dispatches a document's pending outbox events, then removes them from it. */
  async flush(collection: 'orders', id: number): Promise<void> {
    const holder = await this.deps.db.collection<OutboxHolder>(collection).findOne({ _id: id }, { projection: { outbox: 1 } });
    const pending = holder?.outbox ?? [];
    if (!pending.length) return;
    for (const event of pending) await this.log(event, { source: { collection, id } });
    // Exact-entry removal: FerretDB v1 has no $pull by condition, and this never drops a newer entry.
    await this.deps.db.collection<OutboxHolder>(collection).updateOne({ _id: id }, { $pullAll: { outbox: pending } });
    for (const event of pending) await this.dispatch(event.id, event.type);
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
    const doc = await this.log(event, { owner_id: target.ownerId, subscription_ids: target.subscriptionIds });
    await this.dispatch(doc._id, doc.type).catch((err: unknown) => this.deps.logger.warn({ err, eventId: doc._id }, 'dispatch deferred to the relay'));
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
      dispatch_state: 'pending',
    };
    await this.events.insertOnce(doc);
    return doc;
  }

  /**
   * Starts the event's workflow; a second start for the same event is a no-op. Callers that
   * just logged the event pass its type, saving a read on the request path.
   */
  async dispatch(eventId: string, knownType?: EventType): Promise<void> {
    const type = knownType ?? (await this.events.find(eventId))?.type;
    if (!type) throw new Error(`event ${eventId} is not logged`);
    const client = await this.deps.temporal();
    try {
      await client.workflow.start<typeof eventWorkflow>('eventWorkflow', {
        workflowId: eventWorkflowId(eventId),
        taskQueue: this.deps.taskQueue,
        args: [{ eventId, policy: this.deps.policy }],
        typedSearchAttributes: [
          { key: eventIdKey, value: eventId },
          { key: eventTypeKey, value: type },
        ],
      });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
    await this.events.markDispatched(eventId);
  }

  /**
   * One relay pass: flushes outboxes left behind by a crash and dispatches events left
   * pending by a Temporal outage. Returns how many it handled. Bounded per pass.
   */
  async relayOnce(opts: { graceMs: number; batch: number }): Promise<{ flushed: number; dispatched: number }> {
    const holders = await this.deps.db
      .collection<OutboxHolder>('orders')
      .find({ 'outbox.0': { $exists: true } }, { projection: { _id: 1 } })
      .limit(opts.batch)
      .toArray();
    for (const h of holders) await this.flush('orders', h._id);
    const pending = await this.events.pending(new Date(Date.now() - opts.graceMs), opts.batch);
    for (const e of pending) await this.dispatch(e._id, e.type);
    return { flushed: holders.length, dispatched: pending.length };
  }
}
