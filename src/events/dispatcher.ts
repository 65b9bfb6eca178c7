import type { Client } from '@temporalio/client';
import { LRUCache } from 'lru-cache';
import { redeliveryWorkflowId } from '../../workflows/ids';
import { BoundedTasks } from '../lib/bounded-tasks';
import { withTimeout } from '../lib/timing';
import type { Logger } from '../logger';
import type { EventMetrics } from '../telemetry/metrics';
import type { FanoutCandidate } from '../subscriptions/repository';
import type { FanoutSource } from '../subscriptions/fanout-cache';
import type { DispatchNotes, RedeliveryNote } from './dispatch-notes';
import type { OutboxEvent, OutboxFlusher, OutboxSource, PlannedWrite } from './outbox';
import type { EventDoc, EventRepository } from './repository';
import { type Filter, matchesFilter } from '../subscriptions/filter';
import type { OwnerLanes } from './lanes';
import type { OwnerAdmission } from './admission';
import { orderingKey } from '../webhooks/ordering-key';
import { carriedEvent, type DeliverySettings, type EventRun, startEventWorkflow } from './start-options';

export interface DispatcherDeps {
  /** The event log it writes. */
  events: EventRepository;
  /** The notes that make each step recoverable by the relay. */
  notes: DispatchNotes;
  /** Where the fan-out snapshot is read: the subscriptions, or a cache of them. */
  fanout: FanoutSource;
  /** Resolves to a connected Temporal client whose starts are bounded in time (TemporalGateway's); rejects while Temporal is unreachable. */
  temporal: () => Promise<Client>;
  settings: DeliverySettings;
  logger: Logger;
  /** Longest an eager start is waited for before it is left to the relay (default 2 s; other starts are bounded by the connection). */
  startDeadlineMs?: number;
  /** Counts logged events (absent: not counted). */
  metrics?: EventMetrics | undefined;
  /** Most workflow starts requests may leave in flight (default 64); a request that would pass it waits for room. */
  maxBackgroundStarts?: number;
  /** Sends an owner above its fair rate to the bulk task queue (absent: every workflow on the default one). */
  lanes?: OwnerLanes | undefined;
  /** Holds back the writes of an owner on the bulk lane while others send (absent: every write starts at once). */
  admission?: OwnerAdmission | undefined;
}

/** Enough to keep Temporal's frontend busy at hundreds of orders a second, few enough that shutdown drains them in moments. */
const DEFAULT_MAX_BACKGROUND_STARTS = 64;

/** A redelivery to start: the event and the subscriptions, under a redelivery id (one per API call). */
export interface Redelivery {
  event: Pick<EventDoc, '_id' | 'type'>;
  subscriptionIds: string[];
  redeliveryId: string;
  /** The API request that asked for it (X-Request-Id). */
  requestId?: string;
  /** Whose fair rate it counts against (see {@link OwnerLanes}); absent: the default lane. */
  ownerId?: string | undefined;
}

/**
 * Takes events from their write to their workflow: logs each with its fan-out snapshot and
 * starts one workflow per event (or per redelivery). A dispatch note written first makes every
 * step recoverable by the relay; every step is idempotent (insert-once, workflow id from the
 * event id, notes keyed by id), so the API's immediate dispatch and the relay may overlap.
 */
export class EventDispatcher implements OutboxFlusher {
  private readonly events: EventRepository;
  private readonly notes: DispatchNotes;
  private readonly subscriptions: FanoutSource;
  // Filters parsed once per stored text, not once per event and subscription.
  private readonly filters = new LRUCache<string, Filter>({ max: 10_000 });
  private readonly background: BoundedTasks;

  constructor(private readonly deps: DispatcherDeps) {
    this.events = deps.events;
    this.notes = deps.notes;
    this.subscriptions = deps.fanout;
    this.background = new BoundedTasks(deps.maxBackgroundStarts ?? DEFAULT_MAX_BACKGROUND_STARTS);
  }

  announce(events: readonly OutboxEvent[], source: OutboxSource): Promise<void> {
    return this.notes.announce({ eventIds: events.map((e) => e.id), source, dueAt: this.deps.admission?.dueTime(events[0]?.owner_id) });
  }

  /** Notes a write whose owner's writes are held as due after its expected turn: the relay leaves it to this process meanwhile. */
  announcePlanned(write: PlannedWrite): Promise<void> {
    return this.notes.announce({ ...write, dueAt: this.deps.admission?.dueTime(write.ownerId) });
  }

  async readdress(write: PlannedWrite): Promise<void> {
    const [id] = write.eventIds;
    if (id !== undefined) await this.notes.readdress(id, write.source, write.reservation);
  }

  withdraw(events: ReadonlyArray<Pick<OutboxEvent, 'id'>>): Promise<void> {
    return this.notes.remove(events.map((e) => e.id));
  }

  /**
   * Logs and dispatches events just written into `source`'s outbox: the subscribed ones in one
   * insert, one workflow each, started at once; then their note goes. The outbox keeps them: no
   * write to the source, which in FerretDB v1 costs a scan of its collection. A request's flush
   * (`forget`) resolves once the events are logged: their starts run on without it, at most
   * `maxBackgroundStarts` in flight (beyond, it waits for room), and a failed one leaves the note
   * to the relay. The relay's (`remove`) starts an event logged before from its logged snapshot
   * (one read each), so its workflow delivers what the log says; it waits for the starts, then
   * removes the notes.
   */
  async flush(source: OutboxSource, events: readonly OutboxEvent[], note: 'remove' | 'forget' = 'forget'): Promise<void> {
    const snapshots: Snapshots = new Map();
    const docs: EventDoc[] = [];
    for (const event of events) {
      const matching = await this.matchingSubscribers(event, snapshots);
      docs.push(eventDoc(event, { source, ...orderedOf(event, matching) }, matching.map((s) => s._id)));
    }
    const subscribed = docs.filter((d) => d.subscription_ids.length > 0);
    const logged = await this.events.insertNew(subscribed);
    // The relay ('remove') recovers events their writer may have counted already; one nobody
    // subscribed to leaves no log entry to tell by, so only its writer counts it.
    for (const doc of docs) if (doc.subscription_ids.length > 0 ? logged.has(doc._id) : note === 'forget') this.count(doc);
    // Notes are keyed by event ids: one write's note by its first, older notes by their own.
    if (note === 'remove') {
      // One logged before (its writer's start failed) starts as logged: today's fan-out may differ from its snapshot.
      const earlier = docs.filter((d) => !logged.has(d._id)).map((d) => d._id);
      const asLogged = earlier.length > 0 ? await this.events.findMany(earlier) : [];
      await this.startEvents([...subscribed.filter((d) => logged.has(d._id)), ...asLogged]);
      await this.notes.remove(docs.map((d) => d._id));
    } else if (subscribed.length === 0) {
      for (const doc of docs) this.notes.forget(doc._id);
    } else {
      // The events are logged and the note stays until their starts succeed: the request need not wait for them.
      const runs = subscribed.map((doc) => this.runOf(doc));
      const startAll = async () => {
        await this.startRuns(runs);
        for (const doc of docs) this.notes.forget(doc._id);
      };
      if (this.held(subscribed, runs, startAll)) return;
      await this.background.start(async () => {
        try {
          await startAll();
        } catch (err) {
          this.deps.logger.warn({ err, eventIds: subscribed.map((d) => d._id) }, 'dispatch deferred to the relay');
        }
      }, subscribed.length);
    }
  }

  /** Whether admission holds this write's starts back (one owner's write on the bulk lane while others send): they start at its turn. */
  private held(docs: readonly EventDoc[], runs: readonly EventRun[], startAll: () => Promise<void>): boolean {
    const owners = new Set(docs.map((d) => d.data_owner ?? d.owner_id));
    const [owner] = owners;
    if (!this.deps.admission || owners.size !== 1 || owner === undefined) return false;
    return this.deps.admission.holds(owner, runs.some((r) => r.lane === 'bulk')) && this.deps.admission.hold(owner, runs.length, startAll);
  }

  /**
   * Resolves once the workflow starts that requests left running have ended (at shutdown: none is
   * cut off). Writes admission still holds are left to the relay: their notes stay.
   */
  async drain(): Promise<void> {
    const left = this.deps.admission?.stop() ?? 0;
    if (left > 0) this.deps.logger.info({ writes: left }, 'held writes left to the relay');
    await this.background.drain();
  }

  /** Starts the logged events' workflows, all at once; rejects if any start failed, after all have ended. */
  private startEvents(docs: readonly EventDoc[]): Promise<void> {
    return this.startRuns(docs.filter((d) => d.subscription_ids.length > 0).map((doc) => this.runOf(doc)));
  }

  /** Starts the runs, all at once; rejects if any start failed, after all have ended. */
  private async startRuns(runs: readonly EventRun[]): Promise<void> {
    const failed = (await Promise.allSettled(runs.map((run) => this.start(run)))).find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /**
   * Logs an event that has no source document (a test event) for the given subscriptions and
   * dispatches it. Logged before dispatch, so a Temporal outage only delays it: the relay
   * dispatches it later.
   */
  async emit(event: OutboxEvent, target: { ownerId: string; subscriptionIds: string[] }): Promise<EventDoc> {
    await this.notes.announce({ eventIds: [event.id] });
    const doc = eventDoc(event, { owner_id: target.ownerId }, target.subscriptionIds);
    // An event nobody subscribed to is not logged: no list shows it and no redelivery can name it.
    if (doc.subscription_ids.length === 0 || (await this.events.insertOnce(doc))) this.count(doc);
    await this.dispatch(doc).catch((err: unknown) => this.deps.logger.warn({ err, eventId: doc._id }, 'dispatch deferred to the relay'));
    return doc;
  }

  private count(doc: Pick<EventDoc, 'type'>): void {
    this.deps.metrics?.eventsEmitted.inc({ event_type: doc.type });
  }

  /**
   * The fan-out snapshot: the active subscribers whose filter (if any) matches the event's
   * canonical `{type, id, data}`. Same read as without filters; only filtered ones are evaluated.
   * Events of one write with the same type, owner and time share one read: an order's stock
   * events cost the reads of one, however many lines it has.
   */
  private async matchingSubscribers(event: OutboxEvent, snapshots: Snapshots): Promise<FanoutCandidate[]> {
    const key = `${event.type}|${event.owner_id ?? ''}|${event.created_at.getTime()}`;
    let read = snapshots.get(key);
    if (!read) {
      read = this.subscriptions.activeSubscribers(event.type, event.created_at, event.owner_id);
      snapshots.set(key, read);
    }
    const candidates = await read;
    const subject = { type: event.type, id: event.id, data: event.data as unknown };
    return candidates.filter((s) => s.filter === undefined || matchesFilter(this.parsedFilter(s.filter), subject));
  }

  private parsedFilter(text: string): Filter {
    let filter = this.filters.get(text);
    if (!filter) {
      filter = JSON.parse(text) as Filter;
      this.filters.set(text, filter);
    }
    return filter;
  }

  /**
   * Starts the logged event's workflow (a second start is a no-op; an event nobody subscribed
   * to starts none), then lets its note go: no note means dispatched. Requests `forget` it (one
   * batched removal for many); the relay removes it before going on.
   */
  async dispatch(event: EventDoc, note: 'remove' | 'forget' = 'forget'): Promise<void> {
    await this.startEvent(event);
    if (note === 'remove') await this.notes.remove([event._id]);
    else this.notes.forget(event._id);
  }

  /** Starts the logged event's workflow; an event nobody subscribed to starts none. */
  private async startEvent(event: EventDoc): Promise<void> {
    if (event.subscription_ids.length === 0) return;
    await this.start(this.runOf(event));
  }

  /** The run of a logged event's workflow, in the lane of its owner's next workflow. */
  private runOf(event: EventDoc): EventRun {
    const carried = carriedEvent(event);
    return {
      eventId: event._id,
      eventType: event.type,
      subscriptionIds: event.subscription_ids,
      ...(event.request_id ? { requestId: event.request_id } : {}),
      ...(carried ? { event: carried } : {}),
      ...this.placeOf(event.data_owner ?? event.owner_id),
      ...orderingOf(event),
    };
  }

  /** The lane of `owner`'s next workflow. */
  private placeOf(owner: string | undefined): Pick<EventRun, 'lane'> {
    return { lane: this.deps.lanes?.laneOf(owner) ?? 'default' };
  }

  /**
   * Accepts redeliveries: notes them, then starts each one's workflow. A start that fails (e.g.
   * Temporal is down) is left to the relay, so an accepted redelivery is never lost. Returns the
   * ids of the events whose redelivery is new: started now, or left to the relay; one whose
   * workflow id ran or runs already is not.
   */
  async redeliver(redeliveries: readonly Redelivery[]): Promise<Set<string>> {
    const at = new Date();
    const notes: RedeliveryNote[] = redeliveries.map((r) => ({
      _id: redeliveryWorkflowId(r.event._id, r.redeliveryId),
      kind: 'redelivery',
      event_id: r.event._id,
      subscription_ids: r.subscriptionIds,
      created_at: at,
      ...(r.requestId ? { request_id: r.requestId } : {}),
    }));
    await this.notes.noteRedeliveries(notes);
    const types = new Map(redeliveries.map((r) => [r.event._id, r.event.type]));
    const owners = new Map(redeliveries.map((r) => [r.event._id, r.ownerId]));
    const fresh = new Set<string>();
    // A few starts in flight at once: hundreds of recovered events must not take minutes.
    await forEachLimited(notes, 8, (note) =>
      this.startRedelivery(note, types.get(note.event_id)!, owners.get(note.event_id)).then(
        (started) => {
          if (started) fresh.add(note.event_id);
        },
        (err: unknown) => {
          fresh.add(note.event_id);
          this.deps.logger.warn({ err, workflowId: note._id }, 'redelivery start deferred to the relay');
        },
      ),
    );
    return fresh;
  }

  /** Starts a noted redelivery's workflow in `owner`'s lane and deletes the note; false when that workflow id was started before. */
  async startRedelivery(note: RedeliveryNote, eventType: string, owner?: string): Promise<boolean> {
    const started = await this.start({
      eventId: note.event_id,
      eventType,
      subscriptionIds: note.subscription_ids,
      workflowId: note._id,
      ...(note.request_id ? { requestId: note.request_id } : {}),
      ...(owner !== undefined ? this.placeOf(owner) : {}),
    });
    await this.notes.remove([note._id]);
    return started;
  }

  /**
   * Starts a run's workflow. The connection bounds a start in time (TemporalGateway's start
   * deadline): the caller (a request, or the relay) does not wait out the client's own retries
   * while Temporal is down; the note stays, and the relay starts it later (a start is idempotent).
   */
  private async start(run: EventRun): Promise<boolean> {
    const started = startEventWorkflow(await this.deps.temporal(), run, this.deps.settings);
    if (!this.deps.settings.eagerStart) return started;
    // Eager starts go over a NativeConnection, which no interceptor bounds: stop waiting instead (the start may land later; it is idempotent).
    started.catch(() => {});
    return withTimeout(started, this.deps.startDeadlineMs ?? 2000, `starting the workflow of ${run.eventId}`);
  }
}

/**
 * The event as logged, with its fan-out snapshot: the subscriptions active when it happened. An
 * event nobody subscribed to is not logged: no list shows it and no redelivery can name it, so
 * storing it would only cost a write now and a delete at retention.
 */
function eventDoc(event: OutboxEvent, extra: Partial<EventDoc>, subscriptionIds: string[]): EventDoc {
  return {
    _id: event.id,
    ...(event.seq !== undefined ? { seq: event.seq } : {}),
    type: event.type,
    data: event.data,
    created_at: event.created_at,
    ...(event.request_id ? { request_id: event.request_id } : {}),
    ...(event.owner_id !== undefined ? { data_owner: event.owner_id } : {}),
    ...extra,
    subscription_ids: subscriptionIds,
  };
}

/** The ordered subscribers of an event that has a place in its key (none: nothing stored). */
function orderedOf(event: OutboxEvent, matching: readonly FanoutCandidate[]): Pick<EventDoc, 'ordered_ids'> {
  if (event.seq === undefined) return {};
  const ordered = matching.filter((s) => s.ordering === 'per_key').map((s) => s._id);
  return ordered.length > 0 ? { ordered_ids: ordered } : {};
}

/** What an event workflow needs to deliver a logged event in order to its ordered subscribers (none: nothing). */
function orderingOf(event: EventDoc): Pick<EventRun, 'ordering'> {
  if (event.seq === undefined || !event.ordered_ids?.length) return {};
  return { ordering: { key: orderingKey(event), seq: event.seq, subscriptionIds: event.ordered_ids } };
}

/** Fan-out reads already made for one write's events, by type, data owner and time. */
type Snapshots = Map<string, Promise<FanoutCandidate[]>>;

/** Runs `fn` over `items` with at most `limit` calls in flight. */
async function forEachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]!);
  });
  await Promise.all(lanes);
}
