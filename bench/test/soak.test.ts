import { describe, expect, expectTypeOf, it } from 'vitest';
import type { OrderSend } from '../../stack/harness/load';
import type { ArrivalRecord } from '../../stack/harness/receiver-protocol';
import { account, minuteRows, type MinuteRow, type ProbeSample, retentionCost, type SoakSamples, verdicts } from '../soak/minutes';
import { parseOptions, parsePrefill, prefillPresets } from '../soak/options';
import { buildAttempts, buildEvent, buildOrder, buildSubscriptions, defaultPlan } from '../soak/prefill';
import type { AttemptDoc, EventDoc, OrderDoc, SubscriptionDoc } from '../../stack/harness/service';

const send = (sentAt: number, orderId: number | undefined, refused?: string, latencyMs = 10): OrderSend => ({ api: 0, sentAt, latencyMs, ...(orderId !== undefined ? { orderId } : {}), ...(refused ? { refused } : {}) });
const arrival = (orderId: number, tag: string, t: number, n = 1, eventId = `evt_${orderId}`): ArrivalRecord => ({ eventId, tag, t, n, orderId });
const probe = (name: ProbeSample['name'], at: number, ms: number, timedOut = false): ProbeSample => ({ name, at, ms, status: timedOut ? 0 : 200, timedOut });
const tick = (at: number, cpu: number, attempts: number) => ({ at, countMs: 1, docs: { attempts, events: 1, orders: 1 }, cpuSeconds: { worker: cpu, db: cpu / 2 }, loadAverage1: 1.5 });

describe('soak per-minute rows', () => {
  const samples: SoakSamples = {
    startedAt: 0,
    sends: [send(1000, 1), send(2000, undefined, 'HTTP 503'), send(3000, undefined, 'timeout'), send(61_000, 2, undefined, 30), send(62_000, undefined, 'connection reset')],
    notSentAt: [64_000],
    arrivals: [arrival(1, 's0', 1100), arrival(1, 's1', 1300), arrival(2, 's0', 61_500)],
    probes: [probe('attempts', 5000, 12), probe('attempts', 10_000, 40), probe('attempts', 65_000, 10_000, true), probe('orders', 70_000, 7)],
    ticks: [tick(0, 0, 100), tick(60_000, 3, 110), tick(120_000, 4, 120)],
    retention: false,
  };

  it('buckets sends, refusals, deliveries, probes and ticks by minute from the start', () => {
    const [m1, m2] = minuteRows(samples) as [MinuteRow, MinuteRow];
    expect(m1).toMatchObject({ minute: 1, sent: 3, accepted: 1, shed: 1, timeouts: 1, otherErrors: 0, notSent: 0, deliveries: 2, docs: { attempts: 110 }, loadAverage1: 1.5 });
    expect(m1.deliveryMs).toEqual({ n: 2, p50: 100, p99: 300 });
    expect(m1.probes.attempts).toEqual({ n: 2, p50: 12, p99: 40, timeouts: 0 });
    expect(m1.probes.orders.n).toBe(0);
    // 3 s of worker and 1.5 s of db CPU over 2 deliveries.
    expect(m1.cpuMsPerDelivery).toEqual({ worker: 1500, db: 750, all: 2250 });
    expect(m2).toMatchObject({ minute: 2, sent: 2, accepted: 1, otherErrors: 1, notSent: 1, deliveries: 1, docs: { attempts: 120 } });
    expect(m2.deliveryMs).toEqual({ n: 1, p50: 500, p99: 500 });
    expect(m2.orderMs).toEqual({ n: 2, p50: 10, p99: 30 });
    // Without retention the counts differ from what was written only by minute boundaries: no `removed`.
    expect([m1.removed, m2.removed]).toEqual([undefined, undefined]);
    expect(m2.probes.attempts).toEqual({ n: 1, p50: 10_000, p99: 10_000, timeouts: 1 });
  });

  it('counts lost and duplicate deliveries per accepted order and subscription', () => {
    const acc = account(samples.sends, ['s0', 's1'], [...samples.arrivals, arrival(1, 's0', 1200, 3, 'evt_other')]);
    // Order 2 never reached s1; s0 got order 1 under a second webhook-id, three times.
    expect(acc).toEqual({ expected: 4, delivered: 3, lost: 1, duplicates: 3, lastArrival: 61_500 });
  });

  it('checks only the thresholds that were set, and drift from the first to the last minute with samples', () => {
    const rows = minuteRows(samples);
    const acc = account(samples.sends, ['s0'], samples.arrivals);
    expect(verdicts(rows, acc, 6, {}).map((v) => [v.check, v.pass])).toEqual([['no delivery lost', true]]);
    const v = verdicts(rows, acc, 6, { maxListP99Ms: 50, maxDeliveryP99Ms: 1000, minAccepted: 0.5, maxDrift: 1.5 });
    const failed = v.filter((x) => !x.pass).map((x) => x.check);
    expect(failed).toEqual(['attempts list p99 ≤ 50 ms', 'events list p99 ≤ 50 ms', 'subscriptions list p99 ≤ 50 ms', 'alerts list p99 ≤ 50 ms', 'accepted ≥ 0.5 of due', 'delivery p99 drift ≤ 1.5×', 'attempts p99 drift ≤ 1.5×']);
    expect(v.find((x) => x.check === 'accepted ≥ 0.5 of due')?.detail).toBe('2 of 6 (0.3333)');
    // Attempts: 40 ms in minute 1, a 10 s timeout in minute 2; orders: a probe in minute 2 only.
    expect(v.find((x) => x.check === 'attempts p99 drift ≤ 1.5×')?.detail).toBe('last ÷ first minute 250×');
    expect(v.find((x) => x.check === 'orders p99 drift ≤ 1.5×')).toMatchObject({ pass: true, detail: 'fewer than two minutes with samples' });
    expect(v.find((x) => x.check === 'attempts list p99 ≤ 50 ms')?.detail).toBe('worst 10000 ms in minute 2');
  });

  it('counts what retention removed: attempts and events before, plus what the minute wrote, minus after', () => {
    const at = (t: number, attempts: number, events: number) => ({ ...tick(t, 0, attempts), docs: { attempts, events, orders: 1 } });
    const rows = minuteRows({ ...samples, retention: true, ticks: [at(0, 1000, 200), at(60_000, 900, 150), at(120_000, 901, 151)] });
    // Minute 1 wrote 2 attempts (deliveries) and 1 event (accepted order): 1200 + 3 - 1050.
    expect(rows[0]!.removed).toBe(153);
    // Minute 2 wrote 1 and 1, and the counts grew by exactly that: nothing removed.
    expect(rows[1]!.removed).toBe(0);
    expect(minuteRows({ ...samples, retention: true, ticks: [at(0, 1, 1)] })[0]!.removed).toBeUndefined();
  });

  it('compares order latency before retention started and with it, over accepted orders only', () => {
    const sends = [send(1000, 1, undefined, 10), send(2000, 2, undefined, 20), send(2100, undefined, 'HTTP 503', 900), send(3000, 3, undefined, 30), send(4000, 4, undefined, 60)];
    expect(retentionCost(sends, 2500)).toBe('Order p50/p99 before retention 10/20 ms, with it 30/60 ms: 3.00× / 3.00×');
    expect(retentionCost(sends, 5000)).toMatch(/not enough orders on one side/);
  });
});

describe('soak options', () => {
  it('parses prefill specs and presets', () => {
    expect(parsePrefill('ci')).toEqual(prefillPresets.ci);
    expect(parsePrefill('full')).toEqual({ attempts: 1_000_000, events: 200_000, orders: 200_000 });
    expect(parsePrefill('attempts=10,events=5,orders=7')).toEqual({ attempts: 10, events: 5, orders: 7 });
    expect(parsePrefill('orders=3')).toEqual({ attempts: 0, events: 0, orders: 3 });
    expect(() => parsePrefill('events=5,orders=1')).toThrow(/cannot exceed/);
    expect(() => parsePrefill('attempts=5')).toThrow(/need events/);
    expect(() => parsePrefill('rows=5')).toThrow(/--prefill/);
  });

  it('reads durations and thresholds, with defaults for the rest', () => {
    const o = parseOptions(['--duration', '2m', '--rate', '7', '--max-drift', '1.5', '--min-accepted', '0.999']);
    expect(o).toMatchObject({ durationS: 120, rate: 7, subscriptions: 5, probeIntervalS: 5, maxDrift: 1.5, minAccepted: 0.999, maxListP99Ms: undefined, out: undefined });
    expect(parseOptions(['--help'])).toBe('help');
    // .ci/run's command.
    expect(parseOptions('--duration 2m --prefill ci --max-list-p99 6000 --max-seconds 900 --out .data/ci/soak.json'.split(' '))).toMatchObject({ durationS: 120, prefill: prefillPresets.ci, maxListP99Ms: 6000, maxSeconds: 900, out: '.data/ci/soak.json' });
    expect(() => parseOptions(['--min-accepted', '2'])).toThrow(/--min-accepted/);
    expect(() => parseOptions(['--duration', 'soon'])).toThrow(/--duration/);
  });

  it('takes a retention period in whole days, off by default', () => {
    expect(parseOptions([])).toMatchObject({ retentionDays: undefined });
    expect(parseOptions(['--retention-days', '2'])).toMatchObject({ retentionDays: 2 });
    expect(() => parseOptions(['--retention-days', '0'])).toThrow(/--retention-days/);
    expect(() => parseOptions(['--retention-days', '1.5'])).toThrow(/--retention-days/);
    expect(parseOptions(['--retention-days', '2', '--retention-busy-share', '0.25'])).toMatchObject({ retentionBusyShare: 0.25 });
    expect(parseOptions(['--retention-days', '2'])).toMatchObject({ retentionAfterS: 0 });
    expect(parseOptions(['--retention-days', '2', '--retention-after', '3m'])).toMatchObject({ retentionAfterS: 180 });
    expect(() => parseOptions(['--retention-after', 'soon'])).toThrow(/--retention-after/);
    expect(() => parseOptions(['--retention-busy-share', '1.5'])).toThrow(/--retention-busy-share/);
  });
});

describe('soak prefill documents', () => {
  const plan = defaultPlan({ attempts: 10, events: 5, orders: 10 }, { soakOwner: 'bench', soakSubscriptions: [{ id: 'sub_soak', url: 'http://127.0.0.1:1/hook/s0' }], firstOrderId: 1000 });

  it('are typed with the service\'s own document types', () => {
    expectTypeOf(buildOrder).returns.toEqualTypeOf<OrderDoc>();
    expectTypeOf(buildEvent).returns.toEqualTypeOf<EventDoc>();
    expectTypeOf(buildAttempts).returns.toEqualTypeOf<AttemptDoc[]>();
    expectTypeOf(buildSubscriptions).returns.toEqualTypeOf<SubscriptionDoc[]>();
  });

  it('build an order with its order.created outbox entry, its logged event and its attempts', () => {
    const order = buildOrder(plan, 0);
    expect(order).toMatchObject({ _id: '1000', id: 1000, owner_id: 'bench', user_id: 1, status: 'pending', currency: 'EUR' });
    expect(order.date.getTime()).toBeLessThan(plan.now);
    expect(order.outbox).toEqual([expect.objectContaining({ type: 'order.created', owner_id: 'bench', data: { order_id: 1000, total: order.total, currency: 'EUR', status: 'pending', user_id: 1, item_count: 2, items: order.items } })]);
    expect(order.outbox[0]!.id).toMatch(/^evt_[0-9A-Za-z]{22}$/);
    const event = buildEvent(order, ['sub_soak']);
    expect(event).toEqual({ _id: order.outbox[0]!.id, type: 'order.created', data: order.outbox[0]!.data, created_at: order.date, source: { collection: 'orders', id: 1000 }, subscription_ids: ['sub_soak'] });
    const [first, last] = buildAttempts(event, plan.soakSubscriptions[0]!, 2) as [AttemptDoc, AttemptDoc];
    expect(first).toMatchObject({ event_id: event._id, subscription_id: 'sub_soak', attempt: 1, outcome: 'http_error', status_code: 503, state: 'retrying' });
    expect(first.next_attempt_at).toBeInstanceOf(Date);
    expect(last).toMatchObject({ attempt: 2, outcome: 'delivered', status_code: 200, state: 'delivered', series: first.series });
    expect(last.started_at.getTime()).toBeGreaterThan(first.started_at.getTime());
    expect(first._id).not.toBe(last._id);
  });

  it('spread orders over other owners and users, and subscriptions over other owners', () => {
    const owners = new Set(Array.from({ length: 10 }, (_, i) => buildOrder(plan, i).owner_id));
    expect(owners.size).toBeGreaterThan(2);
    const subs = buildSubscriptions(plan, (s) => `sealed:${s}`);
    expect(subs).toHaveLength(100 * 3 + 15);
    expect(subs.filter((s) => s.owner_id === 'bench').every((s) => s.events.join() === 'order.updated')).toBe(true);
    expect(subs[0]!.secrets[0]!.secret).toMatch(/^sealed:whsec_/);
  });
});
