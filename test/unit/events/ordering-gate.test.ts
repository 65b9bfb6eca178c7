import { describe, expect, it } from 'vitest';
import { decideTurn, type KeyedEvent, nextInTurn, type TurnProbes } from '../../../src/events/ordering-gate';

/** The durable truth the gate reads, as a test states it: what is logged (with whom ordered), noted, and ended. */
interface World {
  logged?: Record<string, { subscription_ids: string[]; ordered_ids?: string[] }>;
  noted?: string[];
  ended?: string[];
  /** Logged between the gate's first look and its second (the relay caught up). */
  loggedLate?: Record<string, { subscription_ids: string[]; ordered_ids?: string[] }>;
}

function probes(world: World): TurnProbes & { reads: string[] } {
  const reads: string[] = [];
  const looked = new Set<string>();
  return {
    reads,
    snapshot(id) {
      reads.push(`snapshot ${id}`);
      const late = looked.has(id) ? world.loggedLate?.[id] : undefined;
      looked.add(id);
      return Promise.resolve(world.logged?.[id] ?? late);
    },
    noted(id) {
      reads.push(`noted ${id}`);
      return Promise.resolve(world.noted?.includes(id) ?? false);
    },
    ended(sub, id) {
      reads.push(`ended ${sub} ${id}`);
      return Promise.resolve(world.ended?.includes(`${sub}|${id}`) ?? false);
    },
  };
}

const key: KeyedEvent[] = [
  { id: 'e1', seq: 1 },
  { id: 'e2', seq: 2 },
  { id: 'e3', seq: 3 },
  { id: 'e4', seq: 4 },
];
const ordered = (...subs: string[]) => ({ subscription_ids: subs, ordered_ids: subs });

describe('the turn of an ordered delivery', () => {
  it('goes at once for the first event of its key', async () => {
    expect(await decideTurn('s', 1, key, probes({}))).toEqual({ go: true });
  });

  it('waits for the delivery before it, and goes once that one ended', async () => {
    const world: World = { logged: { e1: ordered('s'), e2: ordered('s') }, ended: ['s|e1'] };
    expect(await decideTurn('s', 3, key, probes(world))).toEqual({ go: false, waitFor: 'e2', reason: 'in_delivery' });
    world.ended!.push('s|e2');
    expect(await decideTurn('s', 3, key, probes(world))).toEqual({ go: true });
  });

  it('stops at the nearest ended delivery: it went only after those before it', async () => {
    const p = probes({ logged: { e3: ordered('s') }, ended: ['s|e3'] });
    expect(await decideTurn('s', 4, key, p)).toEqual({ go: true });
    expect(p.reads).toEqual(['snapshot e3', 'ended s e3']);
  });

  it('passes over events this subscription does not get in order: filtered out, another subscriber, or from before it asked', async () => {
    const world: World = { logged: { e1: ordered('s'), e2: ordered('other'), e3: { subscription_ids: ['s'] } }, ended: [] };
    expect(await decideTurn('s', 4, key, probes(world))).toEqual({ go: false, waitFor: 'e1', reason: 'in_delivery' });
    world.ended!.push('s|e1');
    expect(await decideTurn('s', 4, key, probes(world))).toEqual({ go: true });
  });

  it('waits for an earlier event written but not logged yet (a crash between write and dispatch): the relay logs it', async () => {
    const world: World = { logged: { e1: ordered('s') }, ended: ['s|e1'], noted: ['e2'] };
    expect(await decideTurn('s', 3, key, probes(world))).toEqual({ go: false, waitFor: 'e2', reason: 'not_logged' });
  });

  it('treats an event logged between its two looks as logged', async () => {
    const world: World = { noted: ['e2'], loggedLate: { e2: ordered('s') }, ended: [] };
    expect(await decideTurn('s', 3, key, probes(world))).toEqual({ go: false, waitFor: 'e2', reason: 'in_delivery' });
  });

  it('holds for an event the relay logged and whose note it removed between the two looks', async () => {
    // First look: not logged; then the relay logs it and removes its note; the note is gone when asked.
    const p = probes({ loggedLate: { e2: ordered('s') }, ended: [] });
    expect(await decideTurn('s', 3, key, p)).toEqual({ go: false, waitFor: 'e2', reason: 'in_delivery' });
    expect(p.reads).toEqual(['snapshot e2', 'noted e2', 'snapshot e2', 'ended s e2']);
  });

  it('passes over an event neither logged nor noted: nobody subscribed, so it never will be', async () => {
    const world: World = { logged: { e1: ordered('s') }, ended: ['s|e1'] };
    expect(await decideTurn('s', 3, key, probes(world))).toEqual({ go: true });
  });

  it('goes when the earlier events went with retention, their ordering marks after them', async () => {
    // Retention deletes a mark only with or after its event: a gone event counts as ended.
    expect(await decideTurn('s', 4, key, probes({ logged: {}, ended: [] }))).toEqual({ go: true });
    expect(await decideTurn('s', 4, key, probes({ logged: { e1: ordered('s') }, ended: ['s|e1'] }))).toEqual({ go: true });
  });

  it('takes the history in any order', async () => {
    const shuffled = [key[2]!, key[0]!, key[3]!, key[1]!];
    expect(await decideTurn('s', 3, shuffled, probes({ logged: { e2: ordered('s') } }))).toEqual({ go: false, waitFor: 'e2', reason: 'in_delivery' });
  });
});

/** The gate's snapshot probe over `world`. */
const snapshotOf = (world: World) => {
  const p = probes(world);
  return (id: string) => p.snapshot(id);
};

describe('the events an ended ordered delivery wakes', () => {
  const later: KeyedEvent[] = [{ id: 'e2', seq: 2 }, { id: 'e3', seq: 3 }, { id: 'e4', seq: 4 }, { id: 'e4b', seq: 4 }, { id: 'e5', seq: 5 }];

  it('wakes only the nearest later event logged with the subscription in order, passing over the others', async () => {
    // e2 is not logged yet (it asks when it starts), e3 goes to another subscriber only: e4 is the one waiting.
    const p = probes({ logged: { e3: ordered('other'), e4: ordered('s'), e5: ordered('s') } });
    expect(await nextInTurn('s', later, (id) => p.snapshot(id))).toEqual(['e4']);
    expect(p.reads).toEqual(['snapshot e2', 'snapshot e3', 'snapshot e4', 'snapshot e4b']);
  });

  it('wakes every event at that nearest place, and none when no later one is ordered there', async () => {
    expect(await nextInTurn('s', later, snapshotOf({ logged: { e4: ordered('s'), e4b: ordered('s'), e5: ordered('s') } }))).toEqual(['e4', 'e4b']);
    expect(await nextInTurn('s', later, snapshotOf({ logged: { e2: { subscription_ids: ['s'] }, e3: ordered('other') } }))).toEqual([]);
  });
});
