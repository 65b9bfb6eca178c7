import { describe, expect, it } from 'vitest';
import { countDeliveries, countRefusals, loadHeld, timeline, verdict } from '../chaos/accounting';
import { planFaults, type FaultRecord } from '../chaos/faults';
import { parseOptions } from '../chaos/options';
import { refusalReason, type LoadResult } from '../../stack/harness/load';

const subs = ['sub_a', 'sub_b'];
const arrivals = (entries: Record<string, Record<string, number>>) => new Map(Object.entries(entries).map(([s, e]) => [s, new Map(Object.entries(e))]));

describe('chaos run arithmetic', () => {
  it('counts owed, delivered and lost pairs per accepted order, and deliveries of unconfirmed orders apart', () => {
    const owed = [
      { orderId: 1, eventId: 'evt_1', snapshot: subs },
      { orderId: 2, eventId: 'evt_2', snapshot: ['sub_a'] },
      { orderId: 3, eventId: undefined, snapshot: undefined },
    ];
    const d = countDeliveries(owed, subs, arrivals({ sub_a: { evt_1: 10, evt_2: 30, evt_x: 5 }, sub_b: { evt_1: 20 } }));
    expect(d).toMatchObject({ expected: 6, delivered: 3, lost: 3, notLogged: 1, snapshotMismatches: 1, unconfirmedDelivered: 1, lastArrival: 30 });
    expect(d.lostByOrder).toEqual([
      { orderId: 2, eventId: 'evt_2', subscriptionIds: ['sub_b'] },
      { orderId: 3, eventId: undefined, subscriptionIds: subs },
    ]);
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
    const ok = countDeliveries([{ orderId: 1, eventId: 'evt_1', snapshot: ['sub_a'] }], ['sub_a'], arrivals({ sub_a: { evt_1: 1 } }));
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
