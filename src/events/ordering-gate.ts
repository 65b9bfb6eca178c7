/*
 * Whether an event's turn has come for one ordered subscription: every event of its key emitted
 * before it (the key's history, from the source document) that this subscription gets in order
 * must have ended there first. Read from durable truth only (the source, the event log's snapshot,
 * the dispatch notes, the ordering marks), so a crash anywhere only delays the answer.
 */

/** An event of a key, as its source document lists it. */
export interface KeyedEvent {
  id: string;
  seq: number;
  /** The id of the dispatch note that announces it, when not its own (a take's events: their order's note). */
  note?: string;
}

/** The events of a key before `seq`, nearest first: from a list of the key's events, or read on demand (a long history). */
export type EarlierEvents = readonly KeyedEvent[] | AsyncIterable<KeyedEvent>;

/** `history` before `seq`, nearest first. */
async function* nearestFirst(seq: number, history: EarlierEvents): AsyncIterable<KeyedEvent> {
  if (!Array.isArray(history)) {
    yield* history as AsyncIterable<KeyedEvent>;
    return;
  }
  yield* (history as readonly KeyedEvent[]).filter((e) => e.seq < seq).sort((a, b) => b.seq - a.seq || (a.id < b.id ? 1 : -1));
}

/** What the gate reads about one earlier event; each a point read by id. */
export interface TurnProbes {
  /** The logged event's snapshot (undefined: not logged, yet or ever). */
  snapshot(eventId: string): Promise<{ subscription_ids: readonly string[]; ordered_ids?: readonly string[] | undefined } | undefined>;
  /** Whether a dispatch note still announces it: its write happened or may, and it is not logged yet. */
  noted(eventId: string): Promise<boolean>;
  /** Whether its ordered delivery to the subscription ended; `noteId` is the dispatch note that announced it. */
  ended(subscriptionId: string, eventId: string, noteId: string): Promise<boolean>;
}

/** The gate's answer: go now, or wait for the named event (to be logged, or to end its delivery). */
export type Turn = { go: true } | { go: false; waitFor: string; reason: 'not_logged' | 'in_delivery' };

/**
 * Decides the turn of event `seq` for `subscriptionId` from the key's earlier events (a list in any
 * order, or read nearest first), walking
 * back from the nearest earlier one: one not logged but still noted holds it (the relay logs it
 * soon); one not logged nor noted, looking at the log again after the note (the relay logs an
 * event before it removes its note), never will be (nobody subscribed); one logged that this
 * subscription gets in order holds it until that delivery ended, and once it has, everything
 * before it has too (it waited for them), so the walk stops; one it does not get in order
 * (filtered out, another type, or from before it asked for ordering) is passed over.
 */
export async function decideTurn(subscriptionId: string, seq: number, history: EarlierEvents, probes: TurnProbes): Promise<Turn> {
  for await (const e of nearestFirst(seq, history)) {
    let snapshot = await probes.snapshot(e.id);
    if (!snapshot) {
      const noted = await probes.noted(e.note ?? e.id);
      // Logged before its note goes: one logged since the first look (its note maybe gone already) shows now.
      snapshot = await probes.snapshot(e.id);
      if (!snapshot) {
        if (noted) return { go: false, waitFor: e.id, reason: 'not_logged' };
        continue;
      }
    }
    if (!snapshot.ordered_ids?.includes(subscriptionId)) continue;
    if (await probes.ended(subscriptionId, e.id, e.note ?? e.id)) return { go: true };
    return { go: false, waitFor: e.id, reason: 'in_delivery' };
  }
  return { go: true };
}

/**
 * The events whose turn may come when this one's delivery to `subscriptionId` ends: the nearest
 * later ones (same place) logged with it in order, from the key's later events read nearest
 * first; those after them wait for them, and one not logged yet asks when its workflow starts.
 */
export async function nextInTurn(subscriptionId: string, later: AsyncIterable<KeyedEvent> | Iterable<KeyedEvent>, snapshot: TurnProbes['snapshot']): Promise<string[]> {
  const next: string[] = [];
  let at: number | undefined;
  for await (const e of later) {
    if (at !== undefined && e.seq > at) break;
    if (!(await snapshot(e.id))?.ordered_ids?.includes(subscriptionId)) continue;
    next.push(e.id);
    at = e.seq;
  }
  return next;
}
