import { type Repeating, repeatEvery } from '../lib/repeat';
import type { Logger } from '../logger';
import type { WorkerMetrics } from '../telemetry/metrics';
import type { EventDispatcher } from './dispatcher';
import { announcedIds, type DispatchNotes, type EventNote, type RedeliveryNote } from './dispatch-notes';
import type { EventRepository } from './repository';
import type { HeldReservation, OutboxEvent, OutboxSource } from './outbox';

/** Reads the outbox of one source document by its id; each source collection's repository provides one. */
export interface OutboxReaders {
  orders: (orderId: number) => Promise<readonly OutboxEvent[]>;
  stock_moves: (op: string) => Promise<readonly OutboxEvent[]>;
}

/** The outbox of `source`, read by its collection's reader. */
function readOutbox(readers: OutboxReaders, source: OutboxSource): Promise<readonly OutboxEvent[]> {
  return source.collection === 'orders' ? readers.orders(source.id) : readers.stock_moves(source.id);
}

/** What the relay asks of the stock a note holds for an order (src/inventory). */
export interface HeldStock {
  /** Whether the order the reservation is for was written with it. */
  written(reservation: HeldReservation): Promise<boolean>;
  /** Gives the reservation's units back, once however often it runs. */
  release(reservation: HeldReservation): Promise<void>;
  /** How old a note must be before its reservation is released: well past the API's lease. */
  graceMs: number;
}

export interface RelayDeps {
  dispatcher: Pick<EventDispatcher, 'flush' | 'dispatch' | 'startRedelivery'>;
  /** The event log: what was logged before its dispatch failed. */
  events: EventRepository;
  /** The dispatcher's notes: what may still need a workflow started. */
  notes: DispatchNotes;
  /** Outbox readers by source collection. */
  outboxes: OutboxReaders;
  /** The units notes hold for orders about to be written. */
  reservations: HeldStock;
  logger: Logger;
  /** Times each pass (absent: not timed). */
  metrics?: Pick<WorkerMetrics, 'relayPassDuration'>;
}

export interface RelayPass {
  /** Events flushed from outboxes (a crash came between the write and the dispatch). */
  flushed: number;
  /** Logged events whose workflow was started late (e.g. Temporal was down). */
  dispatched: number;
  /** Redeliveries started late. */
  redelivered: number;
  /** Notes of writes that never happened, dropped (with the units they held given back). */
  abandoned: number;
  /** Notes whose step failed this pass; retried next pass. */
  failed: number;
  /** Notes read: a full batch means more may be waiting. */
  read: number;
}

/**
 * One relay pass over the dispatch notes older than `graceMs` (younger ones belong to requests
 * still in flight): flushes their events from the outboxes they name, dispatches the ones
 * already logged, starts noted redeliveries, and drops notes whose write never happened once
 * they are `abandonMs` old. A note holding units for an order flushes the order's events if it
 * was written with them, else, once `reservations.graceMs` old, gives the units back and goes.
 * One note's failure does not stop the others. Bounded per pass. A pass that is not a `sweep`
 * leaves the notes of held writes (and notes stored without that mark) to the next sweep.
 */
export async function relayOnce(deps: RelayDeps, opts: { graceMs: number; abandonMs: number; batch: number; sweep?: boolean }): Promise<RelayPass> {
  const { dispatcher, events } = deps;
  const now = Date.now();
  const notes = await deps.notes.due(new Date(now - opts.graceMs), opts.batch, opts.sweep === false ? 'unheld' : 'all');
  const pass: RelayPass = { flushed: 0, dispatched: 0, redelivered: 0, abandoned: 0, failed: 0, read: notes.length };
  const attempt = async (note: { _id: string }, step: () => Promise<void>) => {
    try {
      await step();
    } catch (err) {
      pass.failed++;
      deps.logger.warn({ err, note: note._id }, 'relay step failed; retrying next pass');
    }
  };

  const redeliveries = notes.filter((n): n is RedeliveryNote => n.kind === 'redelivery');
  const eventNotes = notes.filter((n): n is EventNote => n.kind !== 'redelivery');
  const handled = new Set<string>();

  // Notes holding units for an order: its events if it was written, else (once past the lease) the units go back.
  for (const note of eventNotes) {
    const { reservation, source } = note;
    if (!reservation || !source) continue;
    handled.add(note._id);
    await attempt(note, async () => {
      if (await deps.reservations.written(reservation)) {
        const listed = new Set(announcedIds(note));
        const written = (await readOutbox(deps.outboxes, source)).filter((e) => listed.has(e.id));
        await dispatcher.flush(source, written, 'remove');
        pass.flushed += written.length;
      } else if (note.created_at.getTime() < now - deps.reservations.graceMs) {
        await deps.reservations.release(reservation);
        await deps.notes.remove([note._id]);
        pass.abandoned++;
      }
    });
  }

  // Events announced into an outbox: one read per source document.
  const bySource = new Map<string, { source: OutboxSource; notes: EventNote[] }>();
  for (const n of eventNotes) {
    if (!n.source || handled.has(n._id)) continue;
    const key = `${n.source.collection}/${n.source.id}`;
    const entry = bySource.get(key) ?? { source: n.source, notes: [] };
    entry.notes.push(n);
    bySource.set(key, entry);
  }
  for (const { source, notes: waiting } of bySource.values()) {
    await attempt(waiting[0]!, async () => {
      const wanted = new Set(waiting.flatMap((n) => announcedIds(n)));
      const written = (await readOutbox(deps.outboxes, source)).filter((e) => wanted.has(e.id));
      await dispatcher.flush(source, written, 'remove');
      const flushed = new Set(written.map((e) => e.id));
      // A note whose write happened is done; one whose events are all missing waits to be abandoned below.
      for (const n of waiting) if (announcedIds(n).some((id) => flushed.has(id))) handled.add(n._id);
      pass.flushed += written.length;
    });
  }

  for (const note of eventNotes) {
    if (handled.has(note._id)) continue;
    await attempt(note, async () => {
      const event = await events.find(note._id);
      if (event) {
        // Logged, then the dispatch failed (e.g. Temporal was down): start it now.
        await dispatcher.dispatch(event, 'remove');
        pass.dispatched++;
      } else if (note.created_at.getTime() < now - opts.abandonMs) {
        // Announced, never logged, and long past any request: the write it announced did not happen.
        await deps.notes.remove([note._id]);
        pass.abandoned++;
      }
    });
  }

  for (const note of redeliveries) {
    await attempt(note, async () => {
      const event = await events.find(note.event_id);
      if (!event) {
        await deps.notes.remove([note._id]);
        pass.abandoned++;
        return;
      }
      await dispatcher.startRedelivery(note, event.type, event.data_owner ?? event.owner_id);
      pass.redelivered++;
    });
  }
  return pass;
}

/** An API's workflow start may take its deadline (2 s, with retries) after its note, plus the request's own time. */
const IN_FLIGHT_MS = 5000;

/**
 * How old a dispatch note must be before the relay takes it: younger ones belong to requests
 * still starting their workflows, and a relay that raced them would start each twice.
 */
export function relayGraceMs(intervalMs: number): number {
  return Math.max(intervalMs, IN_FLIGHT_MS);
}

/** Every how many passes the relay also reads held writes' notes: their due time is seconds to minutes after their write anyway. */
export const RELAY_SWEEP_EVERY = 10;

/**
 * Runs relay passes every `intervalMs` until stopped: what a crash left in an outbox, or a
 * Temporal outage left pending, gets dispatched. The first pass, every
 * {@link RELAY_SWEEP_EVERY}th and the one after a sweep that read a full batch also take held
 * writes past their due time. Safe to run in every worker at once.
 */
export function startRelay(deps: RelayDeps, intervalMs: number): Repeating {
  const batch = 200;
  let pass = 0;
  let sweepNext = true;
  return repeatEvery(intervalMs, async () => {
    const timed = deps.metrics?.relayPassDuration.startTimer();
    const sweep = pass++ % RELAY_SWEEP_EVERY === 0 || sweepNext;
    sweepNext = false;
    try {
      // A note is abandoned only long after any request could still be writing its event.
      const r = await relayOnce(deps, { graceMs: relayGraceMs(intervalMs), abandonMs: Math.max(60_000, 10 * intervalMs), batch, sweep });
      sweepNext = sweep && r.read >= batch;
      if (r.flushed || r.dispatched || r.redelivered) deps.logger.info(r, 'relay started deliveries left behind');
      if (r.abandoned) deps.logger.info(r, 'relay dropped notes of writes that never happened');
    } catch (err) {
      deps.logger.warn({ err }, 'relay pass failed; retrying next interval');
    } finally {
      timed?.();
    }
  });
}
