/**
 * `npm run soak`: a steady open-loop order load for --duration on one database that keeps
 * growing (optionally prefilled), with the list endpoints probed meanwhile; prints a per-minute
 * table and a summary. Exits 1 when a delivery is lost or a threshold set is crossed, 2 at
 * --max-seconds. All traffic is on 127.0.0.1; every loop is bounded in count and time.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ScheduleNotFoundError } from '@temporalio/client';
import { ADMIN_OWNER, ApiKeyRepository, type CounterDoc, retentionScheduleId } from '../../stack/harness/service';
import { type OrderSend, runLoad } from '../../stack/harness/load';
import { ApiClient } from '../../stack/harness/api-client';
import { createSubscription, newSecret } from '../../stack/harness/subscribe';
import { finishProgram, startProgram } from '../../stack/harness/lifecycle';
import { parseOptions as benchDefaults } from '../lib/options';
import { CpuMeter, loadAverage } from '../../stack/harness/proc';
import { ReceiverProcess } from '../../stack/harness/receiver-client';
import type { ArrivalRecord } from '../../stack/harness/receiver-protocol';
import { gitDescribe, writeResults } from '../lib/report';
import { startStack } from '../../stack/harness/stack';
import { nowMs, sleep } from '../../stack/harness/stats';
import { account, minuteOf, minuteRows, type ProbeSample, probeNames, retentionCost, type SoakSamples, type Tick, tableHeader, tableRow, verdicts } from './minutes';
import { parseOptions, type SoakOptions, usage } from './options';
import { defaultPlan, prefill, probedUser, soakUsers } from './prefill';

const root = fileURLToPath(new URL('../../', import.meta.url));
const program = startProgram<SoakOptions>('soak', () => parseOptions(), usage);
const { opts, log, life } = program;

async function main(): Promise<number> {
  // The bench's stack defaults (Temporal SQLite as npm start runs it, RELAY_INTERVAL=1s, short retries); retention a pass a minute.
  const busyShare = opts.retentionBusyShare === undefined ? {} : { RETENTION_BUSY_SHARE: String(opts.retentionBusyShare) };
  const retentionEnv = opts.retentionDays === undefined ? {} : { RETENTION_DAYS: String(opts.retentionDays), RETENTION_INTERVAL: '1m', ...busyShare };
  const stack = await startStack({ ...benchDefaults([]), verbose: opts.verbose }, life.cleanups, log, retentionEnv);
  const database = stack.dbDescription.replace(/, data in .*/, '');
  const receiver = await ReceiverProcess.start();
  life.cleanups.push({ name: 'receiver', fn: () => receiver.stop() });
  // Room for every request of a full timeout at the rate: beyond it, sends are counted as not sent.
  const maxInFlight = Math.ceil(opts.rate * opts.requestTimeoutS) + 16;
  const api = new ApiClient(stack.apiUrl, stack.apiKey, maxInFlight + 8, soakUsers);
  const { key: adminKey } = await new ApiKeyRepository(stack.db).create({ ownerId: ADMIN_OWNER, name: 'soak admin', scopes: ['admin'] });
  const admin = new ApiClient(stack.apiUrl, adminKey, 4);
  life.cleanups.push({ name: 'api clients', fn: () => (api.close(), admin.close()) });

  const tags = Array.from({ length: opts.subscriptions }, (_, i) => `s${i}`);
  const secrets = Object.fromEntries(tags.map((t) => [t, newSecret()]));
  await receiver.request({ type: 'configure', secrets, sampleEvery: 10 });
  const subs: Array<{ id: string; url: string }> = [];
  for (const tag of tags) subs.push({ id: await createSubscription({ api, receiver }, tag, secrets[tag]!), url: `${receiver.url}/hook/${tag}` });

  // Retention waits for the load: a pass during the prefill would empty the backlog before it is measured.
  const retention = opts.retentionDays === undefined ? undefined : (await stack.temporal.client()).schedule.getHandle(retentionScheduleId(stack.config.temporal.taskQueue));
  for (let i = 0; retention; i++) {
    try {
      await retention.pause('soak: prefill');
      break;
    } catch (err) {
      // The worker creates the schedule as it starts: give it 30 s.
      if (!(err instanceof ScheduleNotFoundError) || i >= 120) throw err;
      await sleep(250);
    }
  }
  const counter = await stack.db.collection<CounterDoc>('counters').findOne({ _id: 'orders' });
  const plan = defaultPlan(opts.prefill, { soakOwner: 'bench', soakSubscriptions: subs, firstOrderId: (counter?.seq ?? 0) + 1000 });
  log(`prefill ${JSON.stringify(opts.prefill)} on ${database}`);
  const filled = await prefill(stack.db, plan, (s, id) => stack.secretBox.seal(s, id), log);
  const prefillLine = `${JSON.stringify(filled.counts)} in ${filled.seconds.toFixed(1)} s (${filled.docsPerSecond.toFixed(0)} docs/s)`;
  log(`prefill done: ${prefillLine}`);
  if (opts.prefill.orders > 0) {
    // A database that grew over time has statistics of what it holds; one bulk-filled a moment ago
    // has them after the next autovacuum round (every 10 s on the embedded PostgreSQL).
    log('settling 20 s for the database to gather statistics of the prefill');
    await sleep(20_000);
  }

  // Warm-up: one order through to every receiver (the worker bundles its workflows first); then forget it.
  const warm = await api.createOrder(30_000, 30_000);
  if (!warm.ok) throw new Error(`warm-up order failed: HTTP ${warm.status} ${warm.error ?? ''}`);
  for (let i = 0; i < 240 && (await receiver.request({ type: 'progress' })).unique < tags.length; i++) await sleep(500);
  await receiver.request({ type: 'reset' });

  const meter = new CpuMeter(() => ({ ...stack.pids }));
  const tick = async (): Promise<Tick> => {
    // CPU and load first: the counts can wait seconds on a busy database.
    const at = nowMs();
    const cpuSeconds = meter.snapshot().perRole;
    const loadAverage1 = loadAverage()[0] ?? Number.NaN;
    const docs: Record<string, number> = {};
    // collStats: FerretDB v1 (SQLite) answers estimatedDocumentCount by decoding every document (26 s for 140k, idle).
    for (const c of ['attempts', 'events', 'orders']) docs[c] = await stack.db.command({ collStats: c }, { timeoutMS: 10_000 }).then((s) => Number(s.count), () => Number.NaN);
    return { at, countMs: Math.round(nowMs() - at), docs, cpuSeconds, loadAverage1 };
  };
  const sends: OrderSend[] = [];
  const probes: ProbeSample[] = [];
  const arrivals = new Map<string, ArrivalRecord>();
  const fetchArrivals = async (since?: number) => {
    for (const a of (await receiver.request({ type: 'dump', ...(since !== undefined ? { since } : {}) }, 60_000)).arrivals) arrivals.set(`${a.eventId}|${a.tag}`, a);
  };
  const ticks: Tick[] = [await tick()];
  // After the first tick (counting can take seconds on a busy database): runLoad starts its schedule 50 ms from now too.
  const startedAt = nowMs() + 50;
  const retentionStart = retention && sleep(opts.retentionAfterS * 1000).then(async () => {
    await retention.unpause('soak: load');
    await retention.trigger();
  });
  const samples = (notSentAt: number[]): SoakSamples => ({ startedAt, sends, notSentAt, arrivals: [...arrivals.values()], probes, ticks, retention: retention !== undefined });
  let loadDone = false;

  log(`load: ${opts.rate} orders/s for ${opts.durationS} s over ${soakUsers} users, ${tags.length} subscriptions; probes every ${opts.probeIntervalS} s`);
  process.stdout.write(`\n${tableHeader}\n`);
  const load = runLoad([api], { rate: opts.rate, durationS: opts.durationS, requestTimeoutS: opts.requestTimeoutS, maxInFlight, onSend: (s) => sends.push(s) }, log).finally(() => (loadDone = true));
  // Every probe interval, the lists one after another (alerts with the admin key); a probe that times out counts as the timeout.
  const paths = { attempts: `/api/webhooks/v1/subscriptions/${subs[0]!.id}/attempts`, events: `/api/webhooks/v1/subscriptions/${subs[0]!.id}/events`, orders: `/api/users/${probedUser}/orders`, subscriptions: '/api/webhooks/v1/subscriptions', alerts: '/api/webhooks/v1/alerts' };
  const probing = (async () => {
    const timeoutMs = opts.requestTimeoutS * 1000;
    while (nowMs() <= startedAt + opts.durationS * 1000) {
      const round = nowMs();
      for (const name of probeNames) {
        const at = nowMs();
        const res = await (name === 'alerts' ? admin : api).request('GET', `${paths[name]}?limit=20`, undefined, timeoutMs).catch((err: Error) => ({ status: 0, body: err.message }));
        const timedOut = res.status === 0 && String(res.body).includes('timed out');
        probes.push({ name, at, ms: timedOut ? timeoutMs : Math.round((nowMs() - at) * 10) / 10, status: res.status, timedOut });
      }
      await sleep(Math.max(0, round + opts.probeIntervalS * 1000 - nowMs()));
    }
  })();
  // Each minute: sizes, CPU, load average; the arrivals of the minute; its row, printed live.
  const minutes = (async () => {
    for (let m = 1; !loadDone; m++) {
      while (!loadDone && nowMs() < startedAt + m * 60_000) await sleep(Math.min(1000, startedAt + m * 60_000 - nowMs()));
      if (loadDone) break;
      ticks.push(await tick());
      await fetchArrivals(startedAt + (m - 1) * 60_000 - 5000);
      const row = minuteRows(samples([])).find((r) => r.minute === m);
      if (row) process.stdout.write(`${tableRow(row)}\n`);
    }
  })();
  const loaded = await load;
  await Promise.all([probing, minutes, retentionStart]);
  if (minuteOf(startedAt, loaded.endedAt) >= ticks.length) ticks.push(await tick());

  // Drain: until every accepted order reached every subscription, or the drain timeout.
  const accepted = sends.filter((s) => s.orderId !== undefined).length;
  const drainEnd = nowMs() + opts.drainTimeoutS * 1000;
  while (nowMs() < drainEnd && (await receiver.request({ type: 'progress' })).unique < accepted * tags.length) await sleep(1000);
  await fetchArrivals();
  const all = samples(loaded.skippedAt);
  const rows = minuteRows(all);
  const acc = account(sends, tags, all.arrivals);
  // Thresholds, drift and retention's figures over the load's minutes, not the drain's.
  const loadRows = rows.filter((r) => r.sent + r.notSent > 0);
  const checks = verdicts(loadRows, acc, loaded.planned, opts);
  const first = ticks[0]!.cpuSeconds;
  const cpu = Object.entries(ticks[ticks.length - 1]!.cpuSeconds).map(([r, v]) => `${r} ${((1000 * (v - (first[r] ?? 0))) / Math.max(1, acc.delivered)).toFixed(2)}`);
  const drainSeconds = acc.lastArrival === undefined ? undefined : Math.max(0, (acc.lastArrival - loaded.endedAt) / 1000);
  const badProbes = probes.filter((p) => p.status !== 200).length;
  // Why orders were not accepted (HTTP status or client error), so an "err" in the table can be told apart.
  const refusals: Record<string, number> = {};
  for (const s of sends) if (s.refused !== undefined) refusals[s.refused] = (refusals[s.refused] ?? 0) + 1;
  const retentionLines: string[] = [];
  if (opts.retentionDays !== undefined) {
    const perSecond = (n: number) => (n / Math.max(1, loadRows.length * 60)).toFixed(1);
    const removed = loadRows.reduce((s, r) => s + (r.removed ?? 0), 0);
    const written = loadRows.reduce((s, r) => s + r.deliveries + r.accepted, 0);
    retentionLines.push(`Retention (${opts.retentionDays} days, a pass a minute): ${removed} attempts and events removed over the load, ${perSecond(removed)}/s, while ${perSecond(written)}/s were written`);
    if (opts.retentionAfterS > 0) retentionLines.push(retentionCost(sends, startedAt + opts.retentionAfterS * 1000));
  }
  const summary = [
    `Deliveries: ${acc.delivered} of ${acc.expected} owed, lost ${acc.lost}, duplicates ${acc.duplicates}; drain ${drainSeconds === undefined ? '–' : `${drainSeconds.toFixed(1)} s`} after the load's end`,
    `Probes not answered 200: ${badProbes}; CPU-ms per delivery over the load by process: ${ticks.length > 1 ? cpu.join(', ') : '–'}`,
    `Orders not accepted, by reason: ${Object.entries(refusals).map(([r, n]) => `${r} ${n}`).join(', ') || 'none'}`,
    ...checks.map((v) => `${v.pass ? 'PASS' : 'FAIL'}  ${v.check}: ${v.detail}`),
  ];
  process.stdout.write(
    `\nSoak — ${new Date().toISOString()} — ${opts.rate} orders/s × ${tags.length} subscriptions for ${opts.durationS} s — ${database}\n` +
      `Prefill: ${prefillLine}\n${retentionLines.map((l) => `${l}\n`).join('')}\n${tableHeader}\n${rows.map(tableRow).join('\n')}\n\n${summary.join('\n')}\n`,
  );
  if (opts.out) {
    const file = resolve(root, opts.out);
    writeResults(file, { date: new Date().toISOString(), git: gitDescribe(root), options: opts, database: stack.dbDescription, prefill: filled, rows, ticks, accounting: acc, drainSeconds, badProbes, refusals, verdicts: checks, serviceOutput: stack.outputLines });
    log(`JSON: ${file}`);
  }
  return checks.every((c) => c.pass) ? 0 : 1;
}

await finishProgram('soak', program, main);
