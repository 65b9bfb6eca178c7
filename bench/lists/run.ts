/**
 * `npm run bench:lists`: what each list endpoint the soak probes costs on a grown database,
 * single client and no load. Prefills as the soak does (`--prefill`), adds the traffic of the
 * last `--recent` minutes of a soak (20 orders/s × 5 subscriptions, so a subscription's lists are
 * as dense at their head as under the load), then times each list `--requests` times, its first
 * page and a page `--depth` pages deep by cursor: p50/p99, the API's database commands per
 * request, and FerretDB's SELECTs and the rows PostgreSQL returned to it per request, by
 * collection (rows read against the 20 listed). Counts need the embedded PostgreSQL's
 * pg_stat_statements; timings are of this machine at its load (printed).
 */
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADMIN_OWNER, ApiKeyRepository, type CounterDoc } from '../../stack/harness/service';
import { ApiClient } from '../../stack/harness/api-client';
import { finishProgram, startProgram } from '../../stack/harness/lifecycle';
import { loadAverage } from '../../stack/harness/proc';
import { startStack } from '../../stack/harness/stack';
import { nowMs, seconds, sleep, summarize } from '../../stack/harness/stats';
import { CostMeter, diffCounts } from '../lib/cost';
import { parseOptions as benchDefaults } from '../lib/options';
import { gitDescribe, writeResults } from '../lib/report';
import { parsePrefill } from '../soak/options';
import { defaultPlan, prefill, probedUser, soakUsers } from '../soak/prefill';
import { writeRecentTraffic } from './traffic';

const root = fileURLToPath(new URL('../../', import.meta.url));

const usage = [
  'usage: npm run bench:lists -- [options]',
  '  --prefill <size>     none, ci, full or attempts=<n>,events=<n>,orders=<n> (default ci)',
  '  --recent <duration>  the soak traffic of this long before now, 20 orders/s × 5 subscriptions (default 5m)',
  '  --requests <n>       timed requests per list and page (default 50)',
  '  --depth <n>          the deep page: this many pages in by cursor (default 20)',
  '  --out <file>         also write the results as JSON',
  '',
].join('\n');

function parseOptions(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: { prefill: { type: 'string' }, recent: { type: 'string' }, requests: { type: 'string' }, depth: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  });
  if (values.help) return 'help' as const;
  const whole = (name: string, text: string | undefined, def: number) => {
    const v = text === undefined ? def : Number(text);
    if (!Number.isInteger(v) || v < 1 || v > 100_000) throw new Error(`--${name}: "${text}" must be a whole number from 1 to 100000`);
    return v;
  };
  const spec = parsePrefill(values.prefill ?? 'ci');
  const recentS = seconds('recent', values.recent ?? '5m');
  return {
    prefill: spec,
    recentMinutes: recentS / 60,
    requests: whole('requests', values.requests, 50),
    depth: whole('depth', values.depth, 20),
    out: values.out,
    // The prefill at about 1,500 documents a second, with room to spare.
    maxSeconds: 1800 + (spec.attempts + spec.events + spec.orders) / 500 + recentS * 4,
  };
}

const program = startProgram('lists', () => parseOptions(), usage);
const { opts, log, life } = program;

/** The soak's own subscriptions: the first one's lists are probed. */
const SUBSCRIPTIONS = 5;

/** One list page measured. */
interface Row {
  list: string;
  page: string;
  p50: number;
  p99: number;
  items: number;
  commands: number;
  byCommand: Record<string, number>;
  selects: number;
  rows: number;
  rowsByCollection: Record<string, number>;
}

async function main(): Promise<number> {
  const stack = await startStack({ ...benchDefaults([]), dbCommands: true }, life.cleanups, log);
  const api = new ApiClient(stack.apiUrl, stack.apiKey, 8, soakUsers);
  const { key: adminKey } = await new ApiKeyRepository(stack.db).create({ ownerId: ADMIN_OWNER, name: 'lists admin', scopes: ['admin'] });
  const admin = new ApiClient(stack.apiUrl, adminKey, 4);
  life.cleanups.push({ name: 'api clients', fn: () => (api.close(), admin.close()) });
  const meter = new CostMeter(stack.metricsUrls, stack.embeddedPostgres);
  if (meter.sqlUnavailable) log(`SQL not counted: ${meter.sqlUnavailable}`);

  // Subscriptions of the soak's shape on a port nothing listens on: nothing is delivered, the lists are written directly.
  const subs: Array<{ id: string; url: string }> = [];
  for (let i = 0; i < SUBSCRIPTIONS; i++) {
    const url = `http://127.0.0.1:9/hook/s${i}`;
    const res = await api.request('POST', '/api/webhooks/v1/subscribe', { url, events: ['order.created'], description: `lists s${i}` });
    const id = (res.body as { id?: unknown } | undefined)?.id;
    if (res.status !== 201 || typeof id !== 'string') throw new Error(`subscribe failed: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    subs.push({ id, url });
  }
  const counter = await stack.db.collection<CounterDoc>('counters').findOne({ _id: 'orders' });
  const plan = defaultPlan(opts.prefill, { soakOwner: 'bench', soakSubscriptions: subs, firstOrderId: (counter?.seq ?? 0) + 1000 });
  log(`prefill ${JSON.stringify(opts.prefill)} on ${stack.dbDescription}`);
  const filled = await prefill(stack.db, plan, (s, id) => stack.secretBox.seal(s, id), log);
  log(`prefill done: ${JSON.stringify(filled.counts)} in ${filled.seconds.toFixed(1)} s`);
  const t0 = nowMs();
  const recent = await writeRecentTraffic(stack.db, plan, { minutes: opts.recentMinutes, rate: 20 });
  log(`recent traffic: ${JSON.stringify(recent)} in ${((nowMs() - t0) / 1000).toFixed(1)} s`);
  // As the soak does: the database gathers statistics of what was just written (autovacuum every 10 s).
  await sleep(20_000);

  const sub = subs[0]!.id;
  const lists: Array<{ list: string; path: string; client: ApiClient; cursor: boolean }> = [
    { list: 'attempts', path: `/api/webhooks/v1/subscriptions/${sub}/attempts`, client: api, cursor: true },
    { list: 'events', path: `/api/webhooks/v1/subscriptions/${sub}/events`, client: api, cursor: true },
    { list: 'orders', path: `/api/users/${probedUser}/orders`, client: api, cursor: false },
    { list: 'subscriptions', path: '/api/webhooks/v1/subscriptions', client: api, cursor: true },
    { list: 'alerts', path: '/api/webhooks/v1/alerts', client: admin, cursor: true },
  ];
  const load = [loadAverage()];
  const rows: Row[] = [];
  for (const { list, path, client, cursor } of lists) {
    const get = async (query: string) => {
      const res = await client.request('GET', `${path}?limit=20${query}`, undefined, 60_000);
      if (res.status !== 200) throw new Error(`GET ${path}${query}: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      return res.body as { data: unknown[]; next_cursor?: string };
    };
    const pages: Array<[string, string]> = [['first', '']];
    if (cursor) {
      // The deep page: followed by cursor from the first, as a client pages.
      let at = '';
      let depth = 0;
      for (; depth < opts.depth; depth++) {
        const next = (await get(at)).next_cursor;
        if (!next) break;
        at = `&cursor=${encodeURIComponent(next)}`;
      }
      if (depth > 0) pages.push([`page ${depth + 1}`, at]);
    }
    for (const [page, query] of pages) {
      // Warm: the API key, the contract's validators and the subscription caches.
      for (let i = 0; i < 3; i++) await get(query);
      const before = await meter.snapshot();
      const selectsBefore = meter.selectsByCollection();
      const ms: number[] = [];
      let items = 0;
      for (let i = 0; i < opts.requests; i++) {
        const at = nowMs();
        items = (await get(query)).data.length;
        ms.push(nowMs() - at);
      }
      const after = await meter.snapshot();
      const selectsAfter = meter.selectsByCollection();
      const byCommand = before.api && after.api ? (diffCounts(before.api, after.api) ?? {}) : {};
      const per = (n: number) => Math.round((n / opts.requests) * 10) / 10;
      const rowsByCollection: Record<string, number> = {};
      let selects = 0;
      let rowsRead = 0;
      for (const [name, v] of Object.entries(selectsAfter ?? {})) {
        const was = selectsBefore?.[name] ?? { calls: 0, rows: 0 };
        selects += v.calls - was.calls;
        rowsRead += v.rows - was.rows;
        if (v.rows > was.rows) rowsByCollection[name] = per(v.rows - was.rows);
      }
      const s = summarize(ms);
      const row: Row = {
        list,
        page,
        p50: s.p50,
        p99: s.p99,
        items,
        commands: per(Object.values(byCommand).reduce((a, b) => a + b, 0)),
        byCommand: Object.fromEntries(Object.entries(byCommand).map(([k, v]) => [k, per(v)])),
        selects: per(selects),
        rows: per(rowsRead),
        rowsByCollection,
      };
      rows.push(row);
      log(`${list} ${page}: p50 ${row.p50} ms, p99 ${row.p99} ms, ${row.commands} commands, ${row.selects} SELECTs, ${row.rows} rows ${JSON.stringify(rowsByCollection)}`);
    }
    load.push(loadAverage());
  }

  const table = [
    '| list | page | p50 ms | p99 ms | items | commands/request | SELECTs/request | rows read/request (by collection) |',
    '|---|---|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.list} | ${r.page} | ${r.p50} | ${r.p99} | ${r.items} | ${r.commands} | ${r.selects} | ${r.rows} (${Object.entries(r.rowsByCollection)
          .sort((a, b) => b[1] - a[1])
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}) |`,
    ),
  ];
  process.stdout.write(
    `\nLists — ${new Date().toISOString()} — ${gitDescribe(root).commit?.slice(0, 7) ?? 'no commit'} — ${stack.dbDescription}\n` +
      `Prefill ${JSON.stringify(filled.counts)}; recent ${JSON.stringify(recent)} (${opts.recentMinutes} min at 20 orders/s × ${SUBSCRIPTIONS} subscriptions)\n` +
      `${opts.requests} requests per page, one at a time; load average (1 min) ${load.map((l) => l[0]).join(' → ')}\n\n${table.join('\n')}\n`,
  );
  if (opts.out) {
    const file = resolve(root, opts.out);
    writeResults(file, { date: new Date().toISOString(), git: gitDescribe(root), options: opts, database: stack.dbDescription, prefill: filled, recent, load, rows });
    log(`JSON: ${file}`);
  }
  return 0;
}

await finishProgram('lists', program, main);
