import { ApplicationFailure, patched, setHandler, workflowInfo } from '@temporalio/workflow';
import {
  aggregateState,
  applySteps,
  dueNow,
  type EventDeliveryStatus,
  failingFollowUps,
  firstRound,
  type RoundStep,
  followUpsOfRound,
  heldIn,
  settleRound,
  type SubscriberStatus,
  subscriptionsIn,
} from './delivery-model';
import { deliverInParts } from './parts';
import { deliveryStatusQuery, type EventInput, pendingAttemptsQuery, retryNowSignal } from './definitions';
import { SearchAttributeSync } from './search-attribute-sync';
import { deliverAndLogRound, DISABLE_FAILING_ENDPOINTS, logRound, logUnloggedRound, ONE_ACTIVITY_PER_ROUND, sendRound, startFollowUp, waitForNextDue } from './rounds';
import type { RecordedRound } from '../activities/attempt';
import { ORDERED_DELIVERY, orderingGate } from './ordering';
import { DRAINED_GATE_PASSES, drainedRun, WAIT_DRAIN_TURN } from './drain-turn';

export type { EventInput, RetryNow } from './definitions';
export { deliveryStatusQuery, pendingAttemptsQuery, retryNowSignal } from './definitions';

/**
 * Delivers one event to every subscription of `input`, in rounds (the rules: delivery-model.ts): attempt 1 to
 * all at once; each one that must retry waits on a durable timer through its interval (with
 * jitter, or the receiver's longer Retry-After) and tries again, in this same workflow. 2xx delivered; 4xx
 * stops (410 also disables the subscription); 3xx, 5xx, 408, 429, timeouts and network errors
 * retry; when attempts run out the delivery fails and an administrator is alerted once.
 * Above `batchSize` subscriptions the work is split into child workflows running this same code.
 * Ends Failed (type DeliveryFailed, the status in its details) when any delivery failed or
 * stopped, so such events stand out in the Temporal UI.
 */
export async function eventWorkflow(input: EventInput): Promise<EventDeliveryStatus> {
  const status = input.subscriptionIds.length > input.batchSize ? await deliverInParts(input, eventWorkflow) : await deliverEach(input);
  if (status.state === 'failed') {
    const failed = subscriptionsIn(status.subscriptions, 'failed', 'stopped');
    throw ApplicationFailure.create({
      type: 'DeliveryFailed',
      message: `${failed.length} of ${Object.keys(status.subscriptions).length} deliveries of ${input.eventId} failed: ${failed.slice(0, 5).join(', ')}${failed.length > 5 ? ', …' : ''}`,
      nonRetryable: true,
      details: [status],
    });
  }
  return status;
}

/**
 * Delivers to each subscription of `input` from this workflow, round after round: send what is
 * due, settle the answers by the rules (delivery-model.ts), log the made attempts, start the
 * follow-ups, and sleep until the next retry falls due or a retryNow signal arrives.
 */
async function deliverEach(input: EventInput): Promise<EventDeliveryStatus> {
  const { eventId, policy } = input;
  const origin = input.origin ?? workflowInfo().workflowId;
  const statuses: Record<string, SubscriberStatus> = {};
  for (const id of input.subscriptionIds) statuses[id] = { state: 'attempting', attempts: 0 };
  const snapshot = (): EventDeliveryStatus => ({ eventId, state: aggregateState(Object.values(statuses).map((s) => s.state)), subscriptions: statuses });

  // Wake-ups asked for by retryNow; one that arrives during a round counts for the next one.
  const woken = new Set<string>();
  setHandler(deliveryStatusQuery, snapshot);
  setHandler(retryNowSignal, (which) => {
    for (const id of which?.subscriptionId ? [which.subscriptionId] : input.subscriptionIds) if (statuses[id]) woken.add(id);
  });
  const searchAttributes = new SearchAttributeSync(statuses);

  // Ordered subscriptions (workflows/ordering.ts) join the rounds when their turn comes.
  const gate = orderingGate(input, () => patched(ORDERED_DELIVERY));
  // A run a drain started goes at its time, after the one before it (workflows/drain-turn.ts).
  const drained = drainedRun(input, () => patched(WAIT_DRAIN_TURN));
  const pending = firstRound(gate ? gate.unheld() : input.subscriptionIds, drained ? Math.max(input.notBefore ?? 0, Date.now()) : Date.now());
  const turns = gate?.start(pending);
  // A query adds nothing to the history: the API's delivery timeline reads the holds of attempts not yet made, and ordering waits.
  setHandler(pendingAttemptsQuery, () => ({ ...gate?.waiting(), ...Object.fromEntries(pending) }));
  const followUps: Promise<void>[] = [];
  if (drained) {
    await drained.wait();
    // Waiting at the gate for an earlier event of its key, it passes the drain's turn on: other keys keep draining, the gate keeps this key's order.
    if (gate && gate.held.size > 0 && patched(DRAINED_GATE_PASSES)) {
      await gate.firstLook();
      if (gate.held.size > 0) followUps.push(drained.pass());
    }
  }
  const disabling = new Set<string>();
  while (pending.size > 0 || (gate && gate.held.size > 0)) {
    const due = dueNow(pending, Date.now(), woken);
    if (due.length === 0) {
      await (gate ? gate.waitForNextDue(pending, woken) : waitForNextDue(pending, woken));
      continue;
    }
    for (const [id] of due) startAttempt(statuses[id]!, woken, id);
    // Drawn here, where Math.random is deterministic: the jitter replays as it was.
    const randoms = due.map(() => Math.random());
    let steps: RoundStep[];
    let reported: RecordedRound['failing'];
    if (patched(ONE_ACTIVITY_PER_ROUND)) {
      const round = await deliverAndLogRound(input, origin, due, randoms);
      ({ steps, failing: reported } = round.logged ? round : await logUnloggedRound(eventId, origin, round, policy));
      applySteps(steps, 'unlogged', statuses, pending);
    } else {
      const results = await sendRound(input, due);
      steps = settleRound(policy, due, results, randoms, Date.now());
      applySteps(steps, 'unlogged', statuses, pending);
      reported = await logRound(eventId, origin, steps, policy);
    }
    const failing = failingFollowUps(reported, disabling);
    // Disable after a failing streak: subscriptions the attempt log found failing too long.
    if (failing.length > 0 && patched(DISABLE_FAILING_ENDPOINTS)) {
      for (const f of failing) {
        disabling.add(f.subscriptionId);
        followUps.push(startFollowUp(eventId, origin, f));
      }
    }
    // The states change once the attempts are logged.
    applySteps(steps, 'logged', statuses, pending);
    // Disable on 410; alert when the attempts ran out.
    for (const f of followUpsOfRound(eventId, steps)) followUps.push(startFollowUp(eventId, origin, f));
    gate?.settle(statuses, followUps, heldIn(steps));
    // Attempt 1 made (not only put off by rate_limit or max_in_flight): the next drained run may go.
    if (drained && steps.some((s) => s.kind !== 'deferred')) followUps.push(drained.pass());
    searchAttributes.sync();
  }
  if (turns) await turns;
  searchAttributes.sync();
  // Most events have none, and a promise made in a workflow costs a captured stack trace.
  if (followUps.length > 0) await Promise.all(followUps);
  return snapshot();
}

/** An attempt of this round starts: its wake-up is used and its next-attempt time no longer holds. */
function startAttempt(status: SubscriberStatus, woken: Set<string>, id: string): void {
  woken.delete(id);
  status.state = 'attempting';
  delete status.nextAttemptAt;
}
