/** The soak's printed table (markdown, one row per minute) and summary. */
import type { Accounting, MinuteRow, P50P99, Verdict } from './minutes';

const f = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? '–' : v >= 100 ? v.toFixed(0) : v.toFixed(1));
const pp = (x: P50P99) => (x.n ? `${f(x.p50)}/${f(x.p99)}` : '–');
const p99 = (x: P50P99 & { timeouts: number }) => (x.n ? `${f(x.p99)}${x.timeouts ? ` (${x.timeouts} t/o)` : ''}` : '–');
const k = (v: number | undefined) => (v === undefined ? '–' : v >= 10_000 ? `${Math.round(v / 1000)}k` : String(v));

/** The table's header, for printing it before the first live row. */
export const tableHeader =
  '| min | sent/acc/shed | t/o, err, not sent | order p50/p99 ms | deliv | deliv p50/p99 ms | attempts p99 | events p99 | orders p99 | subs p99 | alerts p99 | docs att/evt/ord | removed | CPU-ms/deliv | load |\n' +
  '|---:|---|---|---|---:|---|---:|---:|---:|---:|---:|---|---:|---:|---:|';

/** One minute as a markdown table row. */
export function tableRow(r: MinuteRow): string {
  return `| ${r.minute} | ${r.sent}/${r.accepted}/${r.shed} | ${r.timeouts}, ${r.otherErrors}, ${r.notSent} | ${pp(r.orderMs)} | ${r.deliveries} | ${pp(r.deliveryMs)} | ${p99(r.probes.attempts)} | ${p99(r.probes.events)} | ${p99(r.probes.orders)} | ${p99(r.probes.subscriptions)} | ${p99(r.probes.alerts)} | ${k(r.docs.attempts)}/${k(r.docs.events)}/${k(r.docs.orders)} | ${k(r.removed)} | ${f(r.cpuMsPerDelivery.all)} | ${f(r.loadAverage1)} |`;
}

/** The summary under the table: deliveries, drain, the verdicts. */
export function summary(acc: Accounting, extra: { drainSeconds: number | undefined; badProbes: number; cpuByRole: string }, verdicts: readonly Verdict[]): string {
  return [
    `Deliveries: ${acc.delivered} of ${acc.expected} owed, lost ${acc.lost}, duplicates ${acc.duplicates}; drain ${extra.drainSeconds === undefined ? '–' : `${extra.drainSeconds.toFixed(1)} s`} after the load's end`,
    `Probes not answered 200: ${extra.badProbes}; CPU-ms per delivery over the load by process: ${extra.cpuByRole}`,
    ...verdicts.map((v) => `${v.pass ? 'PASS' : 'FAIL'}  ${v.check}: ${v.detail}`),
  ].join('\n');
}
