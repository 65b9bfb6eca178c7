import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { condition, continueAsNew, ParentClosePolicy, patched, proxyActivities, setHandler, sleep, startChild, workflowInfo, WorkflowIdReusePolicy } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { HeldCursor } from '../src/deliveries/held';
import type { HeldPage } from '../activities/held';
import type { DeliveryPolicy } from './delivery-model';
import { type DrainTurn, EVENT_WORKFLOW_TASK_TIMEOUT, type EventInput, heldTurnSignal } from './definitions';
import { passTurn, turnWaitMs } from './drain-turn';
import { heldDeliveryWorkflowId } from './ids';
import { eventSearchAttributes } from './search-attributes';

const { heldPage, releaseHeld, settleHeld } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  // The database may be away for a while: the drain waits for it, it does not give up.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

type HeldItem = HeldPage['items'][number];

/** Held deliveries one page reads: a page's starts are released together. */
export const DRAIN_PAGE_SIZE = 100;

/** Deliveries one run starts before it continues as new: about 8 history events each. */
export const DRAIN_STARTS_PER_RUN = 500;

/** Patch: a pass from the oldest that started nothing while records are left waits, and enough of them continue as new. */
export const DRAIN_IDLE_WAIT = 'drain-idle-wait';

/** Patch: a page's runs are started together, each told when to go (EventInput.notBefore), instead of one start per timer. */
export const DRAIN_PAGE_AT_ONCE = 'drain-page-at-once';

/** Patch: a held delivery of an ordered subscription is started with its event's ordering, so its run goes through the gate. */
export const DRAIN_ORDERED_RUNS = 'drain-ordered-runs';

/** Patch: a drained run starts with the event workflows' task timeout (EVENT_WORKFLOW_TASK_TIMEOUT), not the 10 s default: its rounds are theirs. */
export const DRAINED_TASK_TIMEOUT = 'drained-task-timeout';

/** Patch: a page's first run waits for the drain's go too, sent once every run of the page exists (a turn passed to a run not created yet is lost). */
export const DRAIN_PAGE_GO = 'drain-page-go';

/** How long a drain waits after a pass that started nothing (what is left may be stamped ahead, or its slots being rebuilt). */
export const DRAIN_IDLE_MS = 60_000;

/** Passes that started nothing before a run continues as new: its history stays small however long it waits. */
export const DRAIN_IDLE_PASSES_PER_RUN = 10;

/** What a drain is started with: the subscription, and how the deliveries it starts run (the service's DeliverySettings). */
export interface DrainInput {
  subscriptionId: string;
  policy: DeliveryPolicy;
  batchSize: number;
  /** Where the previous run stopped; absent on a drain's first run. */
  after?: HeldCursor;
  /** Deliveries started by the runs before this one. */
  startedBefore?: number;
  /** Deliveries one run starts before it continues as new (absent: DRAIN_STARTS_PER_RUN; recorded histories set a few). */
  startsPerRun?: number;
  /** When (epoch ms) the next delivery may go: the previous run's last one went a gap before (absent: now). */
  nextAt?: number;
}

/** How a drain ended: how many deliveries it started, and why it stopped. */
export interface DrainResult {
  subscriptionId: string;
  started: number;
  /** `drained`: nothing is held any more; otherwise the subscription's state that stopped it (paused again, disabled, deleted). */
  ended: 'drained' | 'paused' | 'disabled' | 'deleted';
}

/**
 * Sends what a resumed subscription held: page by page in emission order, each held delivery
 * started as its own delivery run (the event workflow, to this subscription only) at the
 * subscription's drain rate, so they reach the receiver in that order. A page's runs are started
 * together, in one workflow task, each told when to go (a gap apart) and to wait for the one
 * before it (workflows/drain-turn.ts); the first waits for the drain's go, given once every run of
 * the page exists, and the page's last passes the turn back to the drain, which then reads the
 * next page. A page's records are released once its runs are started. Each run's id comes from its record,
 * so a replayed or repeated drain starts none twice. Stops when the subscription is not active
 * (a new resume or the sweep starts another); continues as new every DRAIN_STARTS_PER_RUN. A
 * pass that started nothing while records are left waits DRAIN_IDLE_MS before the next, and
 * DRAIN_IDLE_PASSES_PER_RUN of them in a row continue as new.
 */
export async function drainWorkflow(input: DrainInput): Promise<DrainResult> {
  const { subscriptionId } = input;
  let after = input.after;
  let started = 0;
  const total = () => (input.startedBefore ?? 0) + started;
  const perRun = input.startsPerRun ?? DRAIN_STARTS_PER_RUN;
  // Starts at the beginning of the current pass, and passes in a row that started nothing.
  let passStart = 0;
  let idlePasses = 0;
  // Runs in flight keep the old command sequence: the patch is decided before the first command.
  const atOnce = patched(DRAIN_PAGE_AT_ONCE);
  const ordered = patched(DRAIN_ORDERED_RUNS);
  const pageGo = atOnce && patched(DRAIN_PAGE_GO);
  let nextAt = input.nextAt;
  const next = () => (atOnce && nextAt !== undefined ? { nextAt } : {});
  // The runs that passed the turn back: the last of each page, once it made its attempt 1.
  const passedBack = new Set<string>();
  setHandler(heldTurnSignal, ({ from }) => void passedBack.add(from));
  for (;;) {
    const page = await heldPage({ subscriptionId, limit: DRAIN_PAGE_SIZE, ...(after ? { after } : {}) });
    if (page.state !== 'active') return { subscriptionId, started: total(), ended: page.state };
    const gapMs = Math.ceil(1000 / page.rate);
    if (atOnce && page.items.length > 0) {
      // Spaced across pages and runs too: the next page's first goes a gap after this one's last.
      const from = Math.max(Date.now(), nextAt ?? 0);
      const runs = page.items.map((item) => heldDeliveryWorkflowId(item.eventId, item.id));
      const self = workflowInfo().workflowId;
      const fresh = await Promise.all(page.items.map((item, i) => startHeld(input, ordered ? item : withoutOrdering(item), { notBefore: from + i * gapMs, turn: { wait: pageGo || i > 0, next: runs[i + 1] ?? self, waitMs: turnWaitMs(i) } })));
      // A run an earlier drain started never passes this drain's turn: passed on for it, so the next is not held up.
      const passing: Promise<void>[] = [];
      fresh.forEach((isNew, i) => {
        if (isNew) return;
        const to = runs[i + 1];
        if (to) passing.push(passTurn(to, runs[i]!));
        else passedBack.add(runs[i]!);
      });
      // Every run of the page exists once its start returned: only now may the first go and pass the turn on (one an earlier drain started too: it may wait for a go).
      if (pageGo) passing.push(passTurn(runs[0]!, self));
      await Promise.all(passing);
      started += page.items.length;
      nextAt = from + page.items.length * gapMs;
      await releaseHeld({ ids: page.items.map((item) => item.id) });
      // The next page's first follows this one's last: the receiver gets the pages in order too.
      const last = runs[runs.length - 1]!;
      if (!passedBack.has(last)) await condition(() => passedBack.has(last), Math.max(0, nextAt - Date.now()) + turnWaitMs(runs.length));
    } else if (!atOnce) {
      for (const item of page.items) {
        // Spaced across pages too: a page's read must not let two starts come closer than the rate.
        if (started > 0) await sleep(gapMs);
        await startHeld(input, withoutOrdering(item));
        started += 1;
      }
      if (page.items.length > 0) await releaseHeld({ ids: page.items.map((item) => item.id) });
    }
    if (page.next) {
      after = page.next;
      if (started >= perRun) await continueAsNew<typeof drainWorkflow>(nextRun(input, total(), after, next()));
      continue;
    }
    // The end: done unless a delivery was held behind the cursor meanwhile (a round that read the pause just before the resume).
    if ((await settleHeld({ subscriptionId })).empty) return { subscriptionId, started: total(), ended: 'drained' };
    after = undefined;
    if (started >= perRun) await continueAsNew<typeof drainWorkflow>(nextRun(input, total(), undefined, next()));
    if (patched(DRAIN_IDLE_WAIT)) {
      idlePasses = started === passStart ? idlePasses + 1 : 0;
      passStart = started;
      if (idlePasses >= DRAIN_IDLE_PASSES_PER_RUN) await continueAsNew<typeof drainWorkflow>(nextRun(input, total(), undefined, next()));
      if (idlePasses > 0) await sleep(DRAIN_IDLE_MS);
    }
  }
}

/** The input of the run that continues this one: from `after` (absent: from the oldest again), its next start not before `pace.nextAt`. */
function nextRun(input: DrainInput, startedBefore: number, after?: HeldCursor, pace: Pick<DrainInput, 'nextAt'> = {}): DrainInput {
  return { subscriptionId: input.subscriptionId, policy: input.policy, batchSize: input.batchSize, startedBefore, ...(input.startsPerRun ? { startsPerRun: input.startsPerRun } : {}), ...(after ? { after } : {}), ...pace };
}

/** A held item as a drain before DRAIN_ORDERED_RUNS started it. */
function withoutOrdering(item: HeldItem): HeldItem {
  return { id: item.id, eventId: item.eventId, eventType: item.eventType };
}

/**
 * Starts the delivery of one held record (at its time and turn, when given), unless a run with its
 * id was started before; whether it started one. One of an ordered subscription carries its
 * event's ordering: it goes through the gate (workflows/ordering.ts) and ends its turn there.
 */
async function startHeld(input: DrainInput, item: HeldItem, place: { notBefore: number; turn: DrainTurn } | Record<string, never> = {}): Promise<boolean> {
  const ordering = item.ordering ? { ordering: { ...item.ordering, subscriptionIds: [input.subscriptionId] } } : {};
  const args: EventInput = { eventId: item.eventId, eventType: item.eventType, subscriptionIds: [input.subscriptionId], policy: input.policy, batchSize: input.batchSize, ...ordering, ...place };
  try {
    await startChild('eventWorkflow', {
      workflowId: heldDeliveryWorkflowId(item.eventId, item.id),
      args: [args],
      // The delivery outlives the drain's run: it continues as new, and may be ended by an operator.
      parentClosePolicy: ParentClosePolicy.ABANDON,
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      typedSearchAttributes: eventSearchAttributes(args, input.batchSize),
      ...(patched(DRAINED_TASK_TIMEOUT) ? { workflowTaskTimeout: EVENT_WORKFLOW_TASK_TIMEOUT } : {}),
    });
    return true;
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    return false;
  }
}
