import { describe, expect, it } from 'vitest';
import { countDeliveries, countRefusals, loadHeld, timeline, verdict } from '../chaos/accounting';
import { describeFault, planFaults, type FaultRecord } from '../chaos/faults';
import { parseOptions } from '../chaos/options';
import { checkOrder, placeOf } from '../chaos/ordering';
import { refusalReason, type LoadResult } from '../../stack/harness/load';

const subs = ['sub_a', 'sub_b'];
const created = (ids: readonly string[]) => ids.map((subscriptionId) => ({ subscriptionId, events: ['order.created'] }));
const arrivals = (entries: Record<string, Record<string, number>>) => new Map(Object.entries(entries).map(([s, e]) => [s, new Map(Object.entries(e))]));

describe('chaos run arithmetic', () => {
  it('counts owed, delivered and lost pairs per accepted order, and deliveries of unconfirmed orders apart', () => {
    const owed = [
      { orderId: 1, eventId: 'evt_1', type: 'order.created', snapshot: subs },
      { orderId: 2, eventId: 'evt_2', type: 'order.created', snapshot: ['sub_a'] },
      { orderId: 3, eventId: undefined, type: 'order.created', snapshot: undefined },
    ];
    const d = countDeliveries(owed, created(subs), arrivals({ sub_a: { evt_1: 10, evt_2: 30, evt_x: 5 }, sub_b: { evt_1: 20 } }));
    expect(d).toMatchObject({ expected: 6, delivered: 3, lost: 3, notLogged: 1, snapshotMismatches: 1, unconfirmedDelivered: 1, lastArrival: 30 });
    expect(d.lostByOrder).toEqual([
      { orderId: 2, eventId: 'evt_2', subscriptionIds: ['sub_b'] },
      { orderId: 3, eventId: undefined, subscriptionIds: subs },
    ]);
  });

  it('owes an order.updated only to the subscriptions to it', () => {
    const owed = [
      { orderId: 1, eventId: 'evt_1', type: 'order.created', seq: 1, snapshot: ['sub_a', 'sub_o'] },
      { orderId: 1, eventId: 'evt_2', type: 'order.updated', seq: 2, snapshot: ['sub_o'] },
      { orderId: 1, eventId: 'evt_3', type: 'order.updated', seq: 3, snapshot: ['sub_o'] },
    ];
    const subscribers = [...created(['sub_a']), { subscriptionId: 'sub_o', events: ['order.created', 'order.updated'] }];
    const d = countDeliveries(owed, subscribers, arrivals({ sub_a: { evt_1: 1 }, sub_o: { evt_1: 2, evt_2: 3 } }));
    expect(d).toMatchObject({ expected: 4, delivered: 3, lost: 1, snapshotMismatches: 0, unconfirmedDelivered: 0 });
    expect(d.lostByOrder).toEqual([{ orderId: 1, eventId: 'evt_3', subscriptionIds: ['sub_o'] }]);
  });

  it('counts the pairs of one key that first arrived against their emission order', () => {
    const a = (eventId: string, t: number, key: string, event: string, previousStatus?: string) => ({ eventId, t, key, event, ...(previousStatus ? { previousStatus } : {}) });
    expect(placeOf({ event: 'order.created' })).toBe(1);
    expect(placeOf({ event: 'order.updated', previousStatus: 'paid' })).toBe(3);
    expect(placeOf({ event: 'order.updated' })).toBeUndefined();
    const inOrder = [a('c1', 1, 'order:1', 'order.created'), a('u1', 2, 'order:1', 'order.updated', 'pending'), a('u2', 3, 'order:1', 'order.updated', 'paid'), a('c2', 0, 'order:2', 'order.created')];
    expect(checkOrder(inOrder)).toEqual({ keys: 2, keysWithSeveral: 1, outOfOrderPairs: 0, unplaced: 0, seqMismatches: 0, examples: [] });
    // shipped's update came first: it overtook both earlier events of its key; another key's timing does not matter.
    const late = [a('c1', 5, 'order:1', 'order.created'), a('u1', 6, 'order:1', 'order.updated', 'pending'), a('u2', 4, 'order:1', 'order.updated', 'paid'), a('c2', 1, 'order:2', 'order.created'), { eventId: 'x', t: 2 }];
    const c = checkOrder(late, new Map([['c1', 1], ['u1', 2], ['u2', 9]]));
    expect(c).toMatchObject({ keys: 2, outOfOrderPairs: 2, unplaced: 1, seqMismatches: 1 });
    expect(c.examples[0]).toMatch(/^order:1: u2 \(place 9\) at .* before c1 \(place 1\)/);
  });

  it('attributes refusals to the fault they happened under, by reason', () => {
    const fault: FaultRecord = { kind: 'api', target: 'api-1', atS: 10, downS: 5, injectedAt: 1000, restartAt: 6000, recoveredAt: 8000 };
    const sends = [
      { api: 1, sentAt: 1500, latencyMs: 1, refused: 'connection refused' },
      { api: 1, sentAt: 12_000, latencyMs: 1, refused: 'HTTP 503' },
      { api: 0, sentAt: 14_000, latencyMs: 1, refused: 'HTTP 503' },
      { api: 0, sentAt: 14_500, latencyMs: 1, orderId: 7 },
    ];
    expect(countRefusals({ sends }, [fault])).toEqual({
      total: 3,
      byReason: { 'connection refused': 1, 'HTTP 503': 2 },
      byFault: { 'SIGKILL api-1': 2 },
      outsideFaults: 1,
    });
  });

  it('slices the load by time of sending', () => {
    const sends = [
      { api: 0, sentAt: 1000, latencyMs: 30, orderId: 1 },
      { api: 1, sentAt: 2000, latencyMs: 10, orderId: 2 },
      { api: 0, sentAt: 3000, latencyMs: 20, orderId: 3 },
      { api: 1, sentAt: 12_500, latencyMs: 10_000, refused: 'timeout' },
    ];
    expect(timeline({ sends, startedAt: 1000 }, 5)).toEqual([
      { fromS: 0, sent: 3, accepted: 3, refused: 0, p50Ms: 20, maxMs: 30 },
      { fromS: 5, sent: 0, accepted: 0, refused: 0, p50Ms: undefined, maxMs: undefined },
      { fromS: 10, sent: 1, accepted: 0, refused: 1, p50Ms: undefined, maxMs: undefined },
    ]);
  });

  it('names refusal reasons from the status or the client error', () => {
    expect(refusalReason(503, undefined)).toBe('HTTP 503');
    expect(refusalReason(0, 'connect ECONNREFUSED 127.0.0.1:1')).toBe('connection refused');
    expect(refusalReason(0, 'POST /api/orders/ timed out after 10000 ms')).toBe('timeout');
    expect(refusalReason(0, 'socket hang up')).toBe('connection reset');
  });

  it('fails the run on a lost delivery, an unheld load or a fault that did not recover', () => {
    const load: LoadResult = { startedAt: 0, endedAt: 9900, planned: 100, sends: Array.from({ length: 100 }, (_, i) => ({ api: 0, sentAt: i * 100, latencyMs: 1, orderId: i })), skipped: 0, skippedAt: [], maxLagMs: 3 };
    const held = loadHeld(load, 10, 100);
    expect(held).toMatchObject({ held: true, sentRate: 10, acceptedRate: 10 });
    const ok = countDeliveries([{ orderId: 1, eventId: 'evt_1', type: 'order.created', snapshot: ['sub_a'] }], created(['sub_a']), arrivals({ sub_a: { evt_1: 1 } }));
    expect(verdict({ deliveries: ok, load: held, faults: [], badSignatures: 0, drained: true, minAccepted: 0.5 })).toEqual([]);
    const lost = { ...ok, lost: 1 };
    expect(verdict({ deliveries: lost, load: held, faults: [], badSignatures: 0, drained: false, minAccepted: 0.5 })[0]).toMatch(/^1 deliveries lost/);
    expect(verdict({ deliveries: ok, load: loadHeld({ ...load, skipped: 5 }, 10, 100), faults: [], badSignatures: 0, drained: true, minAccepted: 0.5 })[0]).toMatch(/not held/);
    expect(verdict({ deliveries: ok, load: loadHeld(load, 10, 40), faults: [], badSignatures: 0, drained: true, minAccepted: 0.5 })[0]).toMatch(/accepted only 4\/s/);
    expect(verdict({ deliveries: ok, load: loadHeld(load, 10, 40), faults: [], badSignatures: 0, drained: true, minAccepted: 0 })).toEqual([]);
    const stuck: FaultRecord = { kind: 'temporal', target: 'temporal', atS: 1, downS: 1, injectedAt: 0, error: 'not ready' };
    expect(verdict({ deliveries: ok, load: held, faults: [stuck], badSignatures: 0, drained: true, minAccepted: 0.5 })).toEqual(['SIGKILL temporal: did not recover (not ready)']);
  });

  it('plans all five faults one after another within the run, for 60 s as for 180 s', () => {
    for (const durationS of [60, 180]) {
      const plan = planFaults(durationS, { receiverOutageS: 60, downS: 5, seed: 1, receivers: 5 });
      expect(plan.map((f) => f.kind)).toEqual(['worker', 'api', 'database', 'temporal', 'receiver']);
      for (let i = 1; i < plan.length; i++) expect(plan[i]!.atS).toBeGreaterThanOrEqual(plan[i - 1]!.atS + plan[i - 1]!.downS);
      expect(plan.at(-1)!.atS + plan.at(-1)!.downS).toBeLessThanOrEqual(durationS);
    }
    expect(planFaults(180, { receiverOutageS: 60, downS: 5, seed: 1, receivers: 5 }).at(-1)!.downS).toBe(60);
  });

  it('with a broker subscription also kills the broker, in a slot of its own, and takes an HTTP receiver down', () => {
    for (const durationS of [60, 180]) {
      const plan = planFaults(durationS, { receiverOutageS: 60, downS: 5, seed: 7, receivers: 5, broker: true });
      expect(plan.map((f) => f.kind)).toEqual(['worker', 'api', 'database', 'temporal', 'broker', 'receiver']);
      expect(plan.find((f) => f.kind === 'broker')!.target).toBe('broker');
      for (let i = 1; i < plan.length; i++) expect(plan[i]!.atS).toBeGreaterThanOrEqual(plan[i - 1]!.atS + plan[i - 1]!.downS);
      expect(plan.at(-1)!.atS + plan.at(-1)!.downS).toBeLessThanOrEqual(durationS);
      expect(plan.at(-1)!.target).toBe(2);
    }
    expect(parseOptions([], {})).toMatchObject({ broker: 'redis' });
    expect(parseOptions(['--broker', 'none'], {})).toMatchObject({ broker: 'none' });
    expect(parseOptions([], { CHAOS_BROKER: 'none' })).toMatchObject({ broker: 'none' });
    expect(() => parseOptions(['--broker', 'kafka'], {})).toThrow(/--broker: "kafka" must be redis or none/);
  });

  it('pauses one subscription in a slot of its own, first, so it holds while the load runs', () => {
    for (const durationS of [60, 180]) {
      const plan = planFaults(durationS, { receiverOutageS: 60, downS: 5, seed: 1, receivers: 5, broker: true, pause: { index: 5, tag: 'o0' }, pauseS: 10 });
      expect(plan.map((f) => f.kind)).toEqual(['pause', 'worker', 'api', 'database', 'temporal', 'broker', 'receiver']);
      const pause = plan.find((f) => f.kind === 'pause')!;
      expect(pause).toMatchObject({ target: 5, tag: 'o0' });
      expect(pause.downS).toBeGreaterThan(plan[1]!.downS);
      for (let i = 1; i < plan.length; i++) expect(plan[i]!.atS).toBeGreaterThanOrEqual(plan[i - 1]!.atS + plan[i - 1]!.downS);
      expect(plan.at(-1)!.atS + plan.at(-1)!.downS).toBeLessThanOrEqual(durationS);
    }
    expect(describeFault({ kind: 'pause', target: 5, tag: 'o0', atS: 1, downS: 1 })).toBe('subscription o0 paused');
    expect(parseOptions([], {})).toMatchObject({ updateShare: 0.25, pauseS: 10, pauseTarget: 'plain' });
    expect(parseOptions(['--pause-target', 'ordered', '--update-share', '0'], {})).toMatchObject({ updateShare: 0, pauseTarget: 'ordered' });
    expect(() => parseOptions(['--pause-target', 'all'], {})).toThrow(/--pause-target: "all" must be plain or ordered/);
    expect(() => parseOptions(['--update-share', '2'], {})).toThrow(/--update-share: "2" must be a number from 0 to 1/);
  });

  it('on the cluster stack kills one of the two Temporal nodes, by the seed', () => {
    const temporalTarget = (seed: number, stack?: 'local' | 'cluster') => planFaults(60, { receiverOutageS: 60, downS: 5, seed, receivers: 5, ...(stack ? { stack } : {}) }).find((f) => f.kind === 'temporal')!.target;
    expect(temporalTarget(1)).toBe('temporal');
    expect(temporalTarget(1, 'cluster')).toBe('temporal-2');
    expect(temporalTarget(2, 'cluster')).toBe('temporal-1');
    expect(parseOptions(['--stack', 'cluster'], {})).toMatchObject({ stack: 'cluster' });
    expect(parseOptions([], { CHAOS_STACK: 'cluster' })).toMatchObject({ stack: 'cluster' });
    expect(parseOptions([], {})).toMatchObject({ stack: 'local' });
    expect(() => parseOptions(['--stack', 'k8s'], {})).toThrow(/--stack: "k8s" must be local or cluster/);
  });
});
