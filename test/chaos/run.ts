/**
 * `npm run chaos`: the fault and soak run of issue 11. Starts its own stack on loopback (embedded
 * Temporal and database, two API processes, two workers, one receiver per subscription, and a
 * Redis whose stream one more subscription delivers to, and an ordered subscription), puts a
 * steady order load on it (a share of the orders also changing status) while it SIGKILLs a
 * worker, an API process, the database, Temporal and Redis one at a time (each started again on
 * the same port and data), pauses and resumes one subscription and takes one receiver down;
 * then waits for the backlog and checks that every accepted order's events reached every
 * subscriber of their type, and the ordered subscriber in emission order per key. Exits 1 when
 * a delivery was lost or out of order, the load was not held or a fault did not recover; 2 at
 * the time limit. A program, never a test: nothing in `npm test` runs it.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { descendants, statFields } from '../../stack/runtime/proc-tree';
import { ApiClient } from '../../stack/harness/api-client';
import { finishProgram, startProgram } from '../../stack/harness/lifecycle';
import { loadAverage } from '../../stack/harness/proc';
import { nowMs, sleep } from '../../stack/harness/stats';
import { countDeliveries, countRefusals, loadHeld, timeline, verdict } from './accounting';
import { awaitDrain, classifyMissing, diagnoseLost, owedEvents } from './drain';
import { planFaults, runFaults } from './faults';
import { runLoad } from '../../stack/harness/load';
import { parseOptions, usage } from './options';
import { collectReceipts, heldCount, receiverDown, receiverUp, setStatus, startOrderedSubscriber, startStreamSubscriber, startSubscribers, type Subscriber } from './receivers';
import { checkOrder } from './ordering';
import { orderUpdates } from './updates';
import { type ChaosReport, faultRows, printReport, writeReport } from './report';
import type { Cleanup } from '../../stack/harness/stack';
import { type ChaosStack, startChaosStack } from './stack';

const root = fileURLToPath(new URL('../../', import.meta.url));
const program = startProgram('chaos', () => parseOptions(), `${usage}\n`);
const { opts, log, life } = program;

/** A few orders through each API until every receiver has them: JIT, the workers' workflow bundles, pools. */
async function warmUp(apis: ApiClient[], subs: Subscriber[]): Promise<void> {
  for (const api of apis) for (let i = 0; i < 2; i++) {
    const r = await api.createOrder(10_000);
    if (!r.ok) throw new Error(`warm-up order failed: HTTP ${r.status} ${r.error}`);
  }
  const deadline = nowMs() + 180_000;
  for (const s of subs) {
    while ((await s.receiver.request({ type: 'progress' })).unique < 2 * apis.length) {
      if (nowMs() > deadline) throw new Error(`warm-up: receiver ${s.tag} did not get its deliveries within 180 s; are the workers polling?`);
      await sleep(200);
    }
    await s.receiver.request({ type: 'reset' });
  }
}

async function main(stack: ChaosStack, subs: Subscriber[], apis: ApiClient[], loadAverageAtStart: number[]): Promise<string[]> {
  // The plain HTTP receivers come first in `subs`: the outage's index picks one of them, the pause another.
  const orderedIndex = subs.findIndex((s) => s.ordered);
  const pauseIndex = opts.pauseTarget === 'ordered' ? orderedIndex : (opts.seed + 1) % opts.subscriptions;
  const pause = { index: pauseIndex, tag: subs[pauseIndex]!.tag };
  const plan = planFaults(opts.durationS, { receiverOutageS: opts.receiverOutageS, downS: opts.downS, seed: opts.seed, receivers: opts.subscriptions, stack: opts.stack, broker: stack.broker !== undefined, pause, pauseS: opts.pauseS });
  log(`load: ${opts.rate} orders/s × ${subs.length} subscriptions for ${opts.durationS}s, ${opts.updateShare * 100}% of the orders also paid and shipped; faults at ${plan.map((f) => `+${f.atS}s`).join(', ')}`);
  const updates = orderUpdates(apis, { share: opts.updateShare, requestTimeoutS: opts.requestTimeoutS, maxInFlight: Math.ceil(opts.rate * opts.requestTimeoutS) });
  const loadStart = nowMs();
  const [load, faults] = await Promise.all([
    runLoad(apis, { ...opts, onSend: (s) => {
        if (s.orderId !== undefined) updates.accepted(s.orderId);
      } }, log),
    runFaults(
      plan,
      loadStart,
      {
        kill: (role) => stack.kill(role),
        start: (role) => stack.start(role),
        receiverDown: (i) => receiverDown(subs[i]!),
        receiverUp: (i) => receiverUp(subs[i]!),
        pause: async (i) => void (await setStatus(apis[0]!, subs[i]!, 'paused')),
        resume: async (i) => {
          const held = await heldCount(apis[0]!, subs[i]!);
          await setStatus(apis[0]!, subs[i]!, 'active');
          return `${held ?? 'unknown'} deliveries held at the resume`;
        },
      },
      log,
    ),
  ]);
  const loadEnd = load.endedAt;
  const updated = await updates.done();
  const accepted = load.sends.filter((s) => s.orderId !== undefined);
  log(`load done: ${load.sends.length} sent, ${accepted.length} accepted, ${updated.applied}/${updated.sent} status changes applied; waiting for the backlog (at most ${opts.drainTimeoutS}s)`);
  const owed = await owedEvents(stack.db, accepted.map((s) => s.orderId!));
  log(`read the ${owed.length} events the accepted orders owe; now counting what the receivers got`);
  const eventIds = owed.map((o) => o.eventId).filter((e): e is string => e !== undefined);
  const owedPerSub = subs.map((s) => owed.filter((o) => o.eventId !== undefined && s.events.includes(o.type)).length);
  const drained = await awaitDrain(subs, eventIds, owedPerSub, opts.drainTimeoutS, log);
  const drainClosedAt = new Date().toISOString();
  // Not drained: say whether the service is still working on it (late) or has given up (lost for good).
  const stillRunning = drained ? 0 : await stack.temporal.client().then((c) => c.workflow.count('ExecutionStatus="Running"')).then((c) => c.count, () => -1);
  const receipts = await collectReceipts(subs);
  const deliveries = countDeliveries(owed, subs, receipts.firstArrival);
  const { lostByOrder, lastArrival, ...counts } = deliveries;
  const brokerSub = subs.find((s) => s.kind !== 'http');
  const brokerCounts = brokerSub ? countDeliveries(owed, [brokerSub], receipts.firstArrival) : undefined;
  const orderedSub = subs[orderedIndex]!;
  const orderedCounts = countDeliveries(owed, [orderedSub], receipts.firstArrival);
  const seqOf = new Map(owed.flatMap((o) => (o.eventId !== undefined && o.seq !== undefined ? [[o.eventId, o.seq] as const] : [])));
  const order = checkOrder(receipts.ordered.get(orderedSub.subscriptionId) ?? [], seqOf);
  const pausedSub = subs[pauseIndex]!;
  const pausedCounts = countDeliveries(owed, [pausedSub], receipts.firstArrival);
  const held = loadHeld(load, opts.rate, accepted.length);
  const failures = verdict({ deliveries, load: held, faults, badSignatures: receipts.badSignatures.length, drained, minAccepted: opts.minAccepted, outOfOrderPairs: order.outOfOrderPairs });
  const logged = new Set(owed.filter((o) => o.snapshot).map((o) => o.orderId));
  const lostStates = lostByOrder.length ? await classifyMissing(stack.db, stack.temporal, lostByOrder.map((l) => ({ ...l, logged: logged.has(l.orderId) })), 30_000).catch((err: Error) => ({ [`unknown: ${err.message}`]: counts.lost })) : {};
  const lostEvidence: string[] = [];
  // A few, in full, for at most 30 s: on an overloaded FerretDB the attempts query scans the collection.
  const evidenceUntil = nowMs() + 30_000;
  // The ordered subscription's first, as its turns add a wait the others do not have.
  const withOrdered = lostByOrder.filter((l) => l.subscriptionIds.includes(subs[orderedIndex]!.subscriptionId));
  for (const l of [...withOrdered.slice(0, 3), ...lostByOrder.filter((l) => !withOrdered.includes(l)).slice(0, 2)]) {
    if (nowMs() > evidenceUntil) break;
    lostEvidence.push(await diagnoseLost(stack.db, stack.temporal, l.orderId, l.eventId, l.subscriptionIds).catch((err: Error) => `order ${l.orderId}: diagnosis failed: ${err.message}`));
  }
  const report: ChaosReport = {
    settings: {
      duration: `${opts.durationS}s`,
      rate: opts.rate,
      subscriptions: subs.length,
      receiverOutage: `${plan.at(-1)!.downS}s`,
      retrySchedule: opts.retrySchedule,
      maxAttempts: opts.maxAttempts,
      requestTimeout: `${opts.requestTimeoutS}s`,
      drainTimeout: `${opts.drainTimeoutS}s`,
      seed: opts.seed,
      minAccepted: opts.minAccepted,
      stack: opts.stack,
      broker: opts.broker,
      updateShare: opts.updateShare,
      pause: `${plan.find((f) => f.kind === 'pause')!.downS}s`,
      pauseTarget: opts.pauseTarget,
    },
    database: stack.dbDescription,
    loadAverage: { start: loadAverageAtStart, end: loadAverage() },
    load: { ...held, planned: load.planned, sent: load.sends.length, skipped: load.skipped, maxLagMs: load.maxLagMs, durationS: opts.durationS },
    faults: faultRows(faults, loadStart),
    accepted: accepted.length,
    refused: countRefusals(load, faults),
    updates: updated,
    deliveries: counts,
    ordered: { subscriptionId: orderedSub.subscriptionId, expected: orderedCounts.expected, delivered: orderedCounts.delivered, lost: orderedCounts.lost, ...order },
    paused: { tag: pausedSub.tag, subscriptionId: pausedSub.subscriptionId, expected: pausedCounts.expected, delivered: pausedCounts.delivered, lost: pausedCounts.lost },
    ...(brokerSub && brokerCounts
      ? {
          broker: {
            kind: brokerSub.kind,
            subscriptionId: brokerSub.subscriptionId,
            expected: brokerCounts.expected,
            delivered: brokerCounts.delivered,
            lost: brokerCounts.lost,
            duplicates: receipts.bySubscription.get(brokerSub.subscriptionId)?.duplicates ?? 0,
            signaturesVerified: receipts.bySubscription.get(brokerSub.subscriptionId)?.verified ?? 0,
          },
        }
      : {}),
    duplicates: receipts.duplicates,
    signaturesVerified: receipts.verified,
    badSignatures: receipts.badSignatures,
    drained,
    drainClosedAt,
    stillRunning,
    drainTimeS: lastArrival !== undefined ? Math.max(0, Math.round((lastArrival - loadEnd) / 100) / 10) : undefined,
    unexpectedExits: stack.unexpectedExits,
    lostStates,
    lostEvidence,
    serviceOutputLines: stack.outputLines,
    notableLines: stack.notableLines,
    timeline: timeline(load, opts.durationS > 90 ? 10 : 5),
    ...(stack.shardMoves.length ? { shardMoves: stack.shardMoves } : {}),
    failures,
  };
  printReport(report);
  if (opts.out) writeReport(resolve(root, opts.out), report);
  return failures;
}

/**
 * Starts the stack; when another process took one of its free ports before it bound it (these
 * machines run other stacks at the same time), stops what started and tries again on new ports.
 */
async function startOnFreePorts(): Promise<ChaosStack> {
  for (let attempt = 1; ; attempt++) {
    const own: Cleanup[] = [];
    const undo = async () => {
      for (const c of own.splice(0).reverse()) await Promise.resolve(c.fn()).catch((err: Error) => log(`cleanup of ${c.name} failed: ${err.message}`));
    };
    const entry: Cleanup = { name: 'chaos stack', fn: undo };
    life.cleanups.push(entry);
    try {
      return await startChaosStack(opts, own, log);
    } catch (err) {
      life.cleanups.splice(life.cleanups.indexOf(entry), 1);
      await undo();
      if (attempt >= 3 || !/already in use|EADDRINUSE/.test(String(err))) throw err;
      log(`a port was taken by another process meanwhile; starting again on new ports (${String(err).split('\n')[1] ?? ''})`);
    }
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

await finishProgram('chaos', program, async () => {
  const loadAverageAtStart = loadAverage();
  log(`starting embedded servers, 2 API processes, 2 workers and ${opts.subscriptions} + 1 ordered receivers${opts.broker === 'none' ? '' : `, a ${opts.broker} broker and its consumer`} (load average ${loadAverageAtStart.join(' ')})`);
  const stack = await startOnFreePorts();
  const apis = stack.apiUrls.map((url) => new ApiClient(url, stack.apiKey, 1024));
  life.cleanups.push({ name: 'api clients', fn: () => apis.forEach((a) => a.close()) });
  const subs = await startSubscribers(opts.subscriptions, apis[0]!, life.cleanups);
  subs.push(await startOrderedSubscriber(apis[0]!, life.cleanups));
  if (stack.broker) subs.push(await startStreamSubscriber(apis[0]!, stack.broker, life.cleanups));
  log(`up: ${stack.dbDescription}; APIs ${stack.apiUrls.join(', ')}; pids ${JSON.stringify(stack.pids())}; warming up`);
  await warmUp(apis, subs);
  return (await main(stack, subs, apis, loadAverageAtStart)).length ? 1 : 0;
}, leftBehind);

/** Nothing may outlive the run: anything still below this process (but tsx's own esbuild helper) is reported and killed. */
function leftBehind(code: number): number {
  const left = descendants(process.pid).filter((pid) => statFields(pid)?.[0] !== undefined && !commandOf(pid).includes('esbuild'));
  for (const pid of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  log(left.length ? `processes left behind and killed: ${left.join(', ')}` : 'no process left behind');
  return left.length && code === 0 ? 1 : code;
}
