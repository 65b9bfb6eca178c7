import { describe, expect, it } from 'vitest';
import { createOrderingActivities, type OrderedDelivery } from '../../../activities/ordering';
import type { RunState } from '../../../src/temporal/workflow-runs';
import { fakeDb } from '../deliveries/fake-held-db';
import { heldId } from '../../../src/deliveries/held';
import { heldDeliveryWorkflowId } from '../../../workflows/ids';

/** An outbox entry of order 7: its own events by their place among the order's, its take's stock events by their product's. */
const entry = (id: string, type: string, seq: number) => ({ id, type, seq, data: {}, created_at: new Date(0) });
const ordered = (id: string, ...subs: string[]) => ({ _id: id, subscription_ids: subs, ordered_ids: subs });

/** The ordering activities over a fake database holding order 7 (its outbox as given) and the logged events. */
function harness(outbox: ReturnType<typeof entry>[], logged: ReturnType<typeof ordered>[], runs?: Record<string, Array<RunState | Error>>) {
  const { db, of } = fakeDb();
  of('orders').set('7', { _id: '7', outbox });
  for (const e of logged) of('events').set(e._id, e);
  // Each describe of a workflow takes its next scripted state (the last repeating).
  const described: string[] = [];
  const workflowRuns = runs
    ? (id: string) => {
        described.push(id);
        const states = runs[id] ?? ['absent'];
        const state = states.length > 1 ? states.shift()! : states[0]!;
        return state instanceof Error ? Promise.reject(state) : Promise.resolve(state);
      }
    : undefined;
  const activities = createOrderingActivities({ db, now: () => new Date(0), workflowRuns });
  const delivery = (eventId: string, seq: number): OrderedDelivery => ({ eventId, subscriptionId: 's', key: 'order:7', seq });
  return { activities, delivery, of, described };
}

/** The run a drain starts for the delivery of `eventId` to s that `origin` held. */
const drainedRun = (eventId: string, origin: string) => heldDeliveryWorkflowId(eventId, heldId('s', eventId, origin));

/** An attempt log entry of `series` to subscription s. */
const attempt = (eventId: string, series: string, state: string) => ({ _id: `att_${series}_${state}`, event_id: eventId, subscription_id: 's', series, attempt: 1, state });
const twoEvents = [entry('evt_a1', 'order.created', 1), entry('evt_a2', 'order.updated', 2)];
const bothLogged = [ordered('evt_a1', 's'), ordered('evt_a2', 's')];

describe('the ordering activities', () => {
  it("order a key's events by the order's own events only, not by the stock events of its take", async () => {
    // stock.low of the take's move 1 sits at its product's place 3, as order.updated (shipped) does at the order's.
    const { activities, delivery, of } = harness(
      [entry('evt_a1', 'order.created', 1), entry('evt_z', 'stock.low', 3), entry('evt_a2', 'order.updated', 2), entry('evt_a3', 'order.updated', 3), entry('evt_a4', 'order.updated', 4)],
      [ordered('evt_a1', 's'), ordered('evt_z', 's'), ordered('evt_a2', 's'), ordered('evt_a3', 's'), ordered('evt_a4', 's')],
    );
    // shipped ended there; the stock event (another key) has not and must not hold delivered back.
    of('ordering_marks').set('s|evt_a3', { _id: 's|evt_a3', at: new Date(0) });
    expect(await activities.orderingTurn(delivery('evt_a4', 4))).toEqual({ go: true });
    expect(await activities.orderingDone(delivery('evt_a1', 1))).not.toContain('evt_z');
  });

  it('wakes, when a delivery ends, only the nearest later event of the key the subscription gets in order', async () => {
    // paid went to another subscriber only; shipped and delivered are ordered for s, and shipped is the one waiting.
    const { activities, delivery } = harness(
      [entry('evt_a1', 'order.created', 1), entry('evt_a2', 'order.updated', 2), entry('evt_a3', 'order.updated', 3), entry('evt_a4', 'order.updated', 4)],
      [ordered('evt_a1', 's'), ordered('evt_a2', 'other'), ordered('evt_a3', 's'), ordered('evt_a4', 's')],
    );
    expect(await activities.orderingDone(delivery('evt_a1', 1))).toEqual(['evt_a3']);
  });

  it('takes a delivery as ended when its own attempt series reached a final state, and marks it', async () => {
    const { activities, delivery, of, described } = harness(twoEvents, bothLogged, { 'event/evt_a1': ['running'] });
    // A redelivery's delivered attempt is not the event's own delivery: the turn waits.
    of('attempts').set('r', attempt('evt_a1', 'event/evt_a1/redelivery/r1#s', 'delivered'));
    of('attempts').set('o', attempt('evt_a1', 'event/evt_a1#s', 'retrying'));
    expect(await activities.orderingTurn(delivery('evt_a2', 2))).toEqual({ go: false, waitFor: 'evt_a1', reason: 'in_delivery' });
    // Its workflow was terminated after a final attempt, before its mark: the log tells.
    of('attempts').set('f', attempt('evt_a1', 'event/evt_a1#s', 'failed'));
    expect(await activities.orderingTurn(delivery('evt_a2', 2))).toEqual({ go: true });
    expect(of('ordering_marks').has('s|evt_a1')).toBe(true);
    expect(described).toEqual(['event/evt_a1']);
  });

  it("takes a delivery as ended when its event's workflow closed without a mark (terminated, timed out, an old worker), and marks it", async () => {
    const { activities, delivery, of, described } = harness(twoEvents, bothLogged, { 'event/evt_a1': ['running', 'closed'] });
    expect(await activities.orderingTurn(delivery('evt_a2', 2))).toEqual({ go: false, waitFor: 'evt_a1', reason: 'in_delivery' });
    expect(await activities.orderingTurn(delivery('evt_a2', 2))).toEqual({ go: true });
    expect(of('ordering_marks').has('s|evt_a1')).toBe(true);
    // From then on the mark answers: no further describe.
    expect(await activities.orderingTurn(delivery('evt_a2', 2))).toEqual({ go: true });
    // Closed without a mark: whether a drain started a run from a hold of it is asked once.
    expect(described).toEqual(['event/evt_a1', 'event/evt_a1', drainedRun('evt_a1', 'event/evt_a1')]);
  });

  it('keeps a delivery held for a paused subscription not ended: while its record is held, then while its drained run runs', async () => {
    const record = heldId('s', 'evt_a1', 'event/evt_a1');
    const run = drainedRun('evt_a1', 'event/evt_a1');
    const { activities, delivery, of } = harness(twoEvents, bothLogged, { 'event/evt_a1': ['closed'], [run]: ['running', 'closed'] });
    of('held_deliveries').set(record, { _id: record, subscription_id: 's', event_id: 'evt_a1' });
    const waits = { go: false, waitFor: 'evt_a1', reason: 'in_delivery' };
    expect(await activities.orderingTurn(delivery('evt_a2', 2))).toEqual(waits);
    // Drained: the record is gone, the run it started goes on.
    of('held_deliveries').delete(record);
    expect(await activities.orderingTurn(delivery('evt_a2', 2))).toEqual(waits);
    expect(of('ordering_marks').has('s|evt_a1')).toBe(false);
    // The drained run ended without a mark (terminated): ended.
    expect(await activities.orderingTurn(delivery('evt_a2', 2))).toEqual({ go: true });
  });

  it('names, when a drained run ends, the later event with the record its hold would have (the workflow wakes its drained run too)', async () => {
    const { activities, delivery, of } = harness(twoEvents, bothLogged);
    expect(await activities.orderingDoneHeld(delivery('evt_a1', 1))).toEqual([{ eventId: 'evt_a2', heldId: heldId('s', 'evt_a2', 'event/evt_a2') }]);
    expect(of('ordering_marks').has('s|evt_a1')).toBe(true);
  });

  it('takes a workflow Temporal no longer knows as ended only once its note is gone (it was started, then purged)', async () => {
    const { activities, delivery, of } = harness(twoEvents, bothLogged, { 'event/evt_a1': ['absent'] });
    of('dispatch_notes').set('evt_a1', { _id: 'evt_a1', created_at: new Date(0) });
    // Not started yet: its note is still there.
    expect(await activities.orderingTurn(delivery('evt_a2', 2))).toEqual({ go: false, waitFor: 'evt_a1', reason: 'in_delivery' });
    of('dispatch_notes').delete('evt_a1');
    expect(await activities.orderingTurn(delivery('evt_a2', 2))).toEqual({ go: true });
  });

  it('keeps the turn waiting while Temporal does not answer, and asks again on the next look', async () => {
    const { activities, delivery } = harness(twoEvents, bothLogged, { 'event/evt_a1': [new Error('describing event/evt_a1: no answer within 5000 ms'), 'closed'] });
    expect(await activities.orderingTurn(delivery('evt_a2', 2))).toEqual({ go: false, waitFor: 'evt_a1', reason: 'in_delivery' });
    expect(await activities.orderingTurn(delivery('evt_a2', 2))).toEqual({ go: true });
  });
});
