import { condition, log, patched, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { AttemptLogEntry, MadeAttempt } from '../activities/attempt';
import { localActivityOptions } from './activity-options';
import type { SubscriberStatus } from './delivery-state';
import { seriesId } from './ids';
import { type DeliveryPolicy, type Settlement, deferralDelayMs, settleAttempt } from './retry-policy';

/** Disables subscriptions whose every delivery failed for ENDPOINT_DISABLE_AFTER (new in 1.1: histories before it never report any). */
export const DISABLE_FAILING_ENDPOINTS = 'disable-failing-endpoints';

const { postAttempts, recordAttempts } = proxyLocalActivities<Activities>(localActivityOptions);

// Disabling a subscription must happen, however long the database is away.
const { disableSubscription } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

// Alerting retries for a while (an alert endpoint may be down), then gives up: the alert is
// stored before the POST is tried, so administrators still find it through the API.
const { raiseAlert } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes', maximumAttempts: 12 },
});

export interface Rounds {
  eventId: string;
  subscriptionIds: string[];
  policy: DeliveryPolicy;
  /** Id of the run's top workflow: with a subscription, it names the attempt series. */
  origin: string;
  /** Each subscription's status, kept current for the query and the search attributes. */
  statuses: Record<string, SubscriberStatus>;
  /** Subscriptions a retryNow signal asked to attempt now. */
  wake: Set<string>;
  /** Called after each round's outcome is logged and applied. */
  afterRound: () => void;
}

/** An attempt waiting for its turn: which one, when it falls due (workflow time), how often max_in_flight put it off. */
interface Due {
  attempt: number;
  at: number;
  deferrals?: number;
}

/**
 * Delivers the event to every subscription in rounds: a round is one batch POST local activity
 * with every attempt due (the first round holds all subscriptions), settled here by the pure
 * retry policy, then one write of its log entries; the states change once they are logged.
 * Between rounds the workflow sleeps on a durable timer until the earliest retry falls due or a
 * retryNow signal arrives. One activity at a time, so every decision rests on history events
 * alone and replays exactly.
 */
export async function deliverInRounds(r: Rounds): Promise<void> {
  const pending = new Map<string, Due>(r.subscriptionIds.map((id) => [id, { attempt: 1, at: Date.now() }]));
  // The 410's disable and the exhausted delivery's alert run beside the rounds.
  const followUps: Promise<void>[] = [];
  const disabling = new Set<string>();
  while (pending.size > 0) {
    const now = Date.now();
    const due = [...pending].filter(([id, d]) => d.at <= now || r.wake.has(id));
    if (due.length === 0) {
      const earliest = Math.min(...[...pending.values()].map((d) => d.at));
      await condition(() => [...pending.keys()].some((id) => r.wake.has(id)), earliest - now);
      continue;
    }
    // A retryNow that arrives during this round counts for the next one.
    for (const [id] of due) {
      r.wake.delete(id);
      r.statuses[id]!.state = 'attempting';
      delete r.statuses[id]!.nextAttemptAt;
    }
    // Drawn here, where Math.random is deterministic: the jitter replays as it was.
    const randoms = due.map(() => Math.random());
    const results = await postAttempts(due.map(([subscriptionId, d]) => ({ eventId: r.eventId, subscriptionId, attempt: d.attempt })));

    const settled: { id: string; attempt: number; result: MadeAttempt; settlement: Settlement; nextAttemptAt?: number }[] = [];
    due.forEach(([id, d], i) => {
      const result = results[i]!;
      if (result.outcome === 'skipped') {
        // Paused, disabled or deleted: pending retries stop here.
        Object.assign(r.statuses[id]!, { state: 'cancelled', cancelReason: result.reason });
        pending.delete(id);
        return;
      }
      if (result.outcome === 'deferred') {
        // Its endpoint has max_in_flight POSTs running: the same attempt, a little later, not logged.
        const deferrals = (d.deferrals ?? 0) + 1;
        const at = Date.now() + deferralDelayMs(deferrals, randoms[i]!);
        Object.assign(r.statuses[id]!, { state: 'retrying', nextAttemptAt: at, deferrals: (r.statuses[id]!.deferrals ?? 0) + 1 });
        pending.set(id, { attempt: d.attempt, at, deferrals });
        return;
      }
      const settlement = settleAttempt(r.policy, d.attempt, result, randoms[i]!);
      const nextAttemptAt = settlement.state === 'retrying' ? Date.now() + settlement.delayMs : undefined;
      settled.push({ id, attempt: d.attempt, result, settlement, ...(nextAttemptAt !== undefined ? { nextAttemptAt } : {}) });
    });
    if (settled.length > 0) {
      const recorded = await recordAttempts(
        settled.map(
          (s): AttemptLogEntry => ({
            eventId: r.eventId,
            subscriptionId: s.id,
            attempt: s.attempt,
            series: seriesId(r.origin, s.id),
            result: s.result,
            ...(s.nextAttemptAt !== undefined ? { nextAttemptAt: s.nextAttemptAt } : {}),
            state: s.settlement.state,
          }),
        ),
      );
      // Replayed histories from before 1.1 have no result here.
      const failing = (recorded?.failing ?? []).filter((f) => !disabling.has(f.subscriptionId));
      if (failing.length > 0 && patched(DISABLE_FAILING_ENDPOINTS)) {
        for (const f of failing) {
          disabling.add(f.subscriptionId);
          const reason = `every delivery failed since ${new Date(f.since).toISOString()}`;
          followUps.push(disableSubscription({ subscriptionId: f.subscriptionId, eventId: r.eventId, reason, failingSince: f.since }));
        }
      }
    }
    for (const s of settled) {
      const status = r.statuses[s.id]!;
      noteAttempt(status, s.attempt, s.result);
      status.state = s.settlement.state;
      if (s.nextAttemptAt !== undefined) {
        status.nextAttemptAt = s.nextAttemptAt;
        pending.set(s.id, { attempt: s.attempt + 1, at: s.nextAttemptAt });
        continue;
      }
      pending.delete(s.id);
      const last = 'statusCode' in s.result ? `${s.result.outcome} ${s.result.statusCode}` : s.result.outcome;
      followUps.push(afterLastAttempt(r, s.id, s.settlement.verdict === 'gone', s.settlement.state === 'failed' ? `${s.attempt} attempts (last: ${last})` : undefined));
    }
    r.afterRound();
  }
  await Promise.all(followUps);
}

/** Records a made attempt's own outcome in the status. */
function noteAttempt(status: SubscriberStatus, attempt: number, result: MadeAttempt): void {
  status.attempts = attempt;
  status.lastOutcome = result.outcome;
  if ('statusCode' in result) {
    status.lastStatusCode = result.statusCode;
    delete status.lastError;
  } else {
    status.lastError = result.error;
    delete status.lastStatusCode;
  }
}

/** What follows a delivery's last attempt: the 410's disable, the alert when attempts ran out (`exhausted` says how). */
async function afterLastAttempt(r: Rounds, subscriptionId: string, gone: boolean, exhausted: string | undefined): Promise<void> {
  const { eventId } = r;
  if (gone) await disableSubscription({ subscriptionId, eventId, reason: `receiver answered 410 Gone to event ${eventId}` });
  if (exhausted === undefined) return;
  try {
    await raiseAlert({
      kind: 'delivery_failed',
      subscriptionId,
      eventId,
      key: seriesId(r.origin, subscriptionId),
      message: `Delivery of ${eventId} to ${subscriptionId} failed after ${exhausted}`,
    });
  } catch (err) {
    log.error('admin alert could not be sent; it stays stored', { eventId, subscriptionId, error: String(err) });
  }
}
