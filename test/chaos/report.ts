/** The chaos run's report: a plain-text summary on stdout, and the same as JSON on request. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Deliveries, LoadHeld, Refusals, Slice } from './accounting';
import { describeFault, type FaultRecord } from './faults';
import type { OrderCheck } from './ordering';
import type { UnexpectedExit } from './stack';
import type { UpdateResult } from './updates';

export interface ChaosReport {
  settings: Record<string, string | number>;
  database: string;
  loadAverage: { start: number[]; end: number[] };
  load: LoadHeld & { planned: number; sent: number; skipped: number; maxLagMs: number; durationS: number };
  faults: Array<{ fault: string; atS: number; downS: number; backAfterS: number | undefined; error?: string; detail?: string }>;
  accepted: number;
  refused: Refusals;
  /** The status changes made beside the load (order.updated events). */
  updates: UpdateResult;
  deliveries: Omit<Deliveries, 'lostByOrder' | 'lastArrival'>;
  /** The ordered subscription's share of `deliveries`, and its arrival order per key. */
  ordered: { subscriptionId: string; expected: number; delivered: number; lost: number } & OrderCheck;
  /** The paused subscription's share of `deliveries`. */
  paused: { tag: string; subscriptionId: string; expected: number; delivered: number; lost: number };
  /** The broker subscription's share of `deliveries` (and of `duplicates`), when the run had one. */
  broker?: { kind: string; subscriptionId: string; expected: number; delivered: number; lost: number; duplicates: number; signaturesVerified: number };
  duplicates: number;
  signaturesVerified: number;
  badSignatures: string[];
  drained: boolean;
  /** When the receivers were last counted (evidence times after it mean: delivered late). */
  drainClosedAt: string;
  /** Delivery workflows still running when the drain window closed (-1: unknown). */
  stillRunning: number;
  /** Seconds from the load's end to the last owed delivery's arrival. */
  drainTimeS: number | undefined;
  unexpectedExits: UnexpectedExit[];
  /** Where the lost deliveries stand when the run ends: on their way (late), closed, or gone. */
  lostStates: Record<string, number>;
  /** Evidence for the first lost deliveries. */
  lostEvidence: string[];
  serviceOutputLines: Record<string, number>;
  notableLines: Record<string, Record<string, number>>;
  timeline: Slice[];
  /** Cluster stack: where a killed node's shards went, and when. */
  shardMoves?: string[];
  failures: string[];
}

/** Fault records as seconds from the load's start. */
export function faultRows(faults: readonly FaultRecord[], loadStart: number): ChaosReport['faults'] {
  const s = (ms: number) => Math.round((ms - loadStart) / 100) / 10;
  return faults.map((f) => ({
    fault: describeFault(f),
    atS: s(f.injectedAt),
    downS: f.downS,
    backAfterS: f.recoveredAt !== undefined ? Math.round((f.recoveredAt - f.injectedAt) / 100) / 10 : undefined,
    ...(f.error ? { error: f.error } : {}),
    ...(f.detail ? { detail: f.detail } : {}),
  }));
}

/** Prints the report to stdout. */
export function printReport(r: ChaosReport): void {
  const out: string[] = [];
  const row = (k: string, v: string | number) => out.push(`  ${k.padEnd(28)} ${v}`);
  out.push('', '== chaos run: faults under steady load ==');
  row('settings', Object.entries(r.settings).map(([k, v]) => `${k}=${v}`).join(' '));
  row('database', r.database);
  row('load average at start / end', `${r.loadAverage.start.join(' ')} / ${r.loadAverage.end.join(' ')}`);
  row('load', `${r.load.sentRate}/s sent of ${r.load.askedRate}/s asked for ${r.load.durationS}s (${r.load.sent}/${r.load.planned} sent, ${r.load.skipped} skipped, max lag ${r.load.maxLagMs} ms): ${r.load.held ? 'held' : 'NOT held'}`);
  out.push('  faults (seconds from the load start; back = until it answered again):');
  for (const f of r.faults) out.push(`    +${String(f.atS).padStart(6)}s  ${f.fault.padEnd(36)} down ${f.downS}s, back after ${f.backAfterS ?? '—'}s${f.detail ? ` (${f.detail})` : ''}${f.error ? `  ERROR ${f.error}` : ''}`);
  row('accepted (201)', `${r.accepted} (${r.load.acceptedRate}/s)`);
  row('refused', `${r.refused.total}: ${Object.entries(r.refused.byReason).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`);
  row('refused per fault', `${Object.entries(r.refused.byFault).map(([k, v]) => `${k} ${v}`).join(', ')}; outside faults ${r.refused.outsideFaults}`);
  const u = r.updates;
  row('status changes', `${u.orders} orders moved pending → paid → shipped: ${u.applied}/${u.sent} PATCHes applied, ${u.skipped} skipped; refused ${Object.entries(u.refused).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`);
  row('expected deliveries', r.deliveries.expected);
  row('delivered (unique)', r.deliveries.delivered);
  row('LOST', r.deliveries.lost);
  for (const [state, n] of Object.entries(r.lostStates)) row(`  ${state}`, n);
  row('duplicates', `${r.duplicates} (receipts beyond the first per webhook-id and subscription)`);
  const b = r.broker;
  if (b) row(`broker subscription (${b.kind})`, `expected ${b.expected}, delivered ${b.delivered}, lost ${b.lost}, duplicates ${b.duplicates}, signatures verified ${b.signaturesVerified}`);
  const o = r.ordered;
  row('ordered subscription', `expected ${o.expected}, delivered ${o.delivered}, lost ${o.lost}; ${o.keys} keys (${o.keysWithSeveral} with several events), OUT OF ORDER ${o.outOfOrderPairs} pairs, ${o.unplaced} unplaced, ${o.seqMismatches} envelope/seq mismatches`);
  for (const e of o.examples) row('  out of order', e);
  const p = r.paused;
  row(`paused subscription ${p.tag}`, `expected ${p.expected}, delivered ${p.delivered}, lost ${p.lost}`);
  row('drain time', r.drainTimeS !== undefined ? `${r.drainTimeS}s from the load's end to the last delivery${r.drained ? '' : ' (NOT drained)'}` : '—');
  if (!r.drained) row('drain window closed at', r.drainClosedAt);
  if (!r.drained) row('workflows still running', `${r.stillRunning < 0 ? 'unknown' : r.stillRunning} when the drain window closed (a lost delivery with its workflow still running is late, not given up)`);
  row('events not logged', r.deliveries.notLogged);
  row('snapshot mismatches', r.deliveries.snapshotMismatches);
  row('delivered, not confirmed', `${r.deliveries.unconfirmedDelivered} (orders written but refused to the client, e.g. by a timeout)`);
  row('signatures', `${r.signaturesVerified} verified, ${r.badSignatures.length} bad`);
  row('unexpected exits', r.unexpectedExits.length ? r.unexpectedExits.map((e) => `${e.role} (code ${e.code}, ${e.signal})`).join(', ') : 'none');
  row('service warnings/errors', Object.entries(r.serviceOutputLines).map(([k, v]) => `${k} ${v}`).join(', ') || 'none');
  for (const [label, counts] of Object.entries(r.notableLines)) row(`  ${label}`, Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(', '));
  for (const m of r.shardMoves ?? []) row('shards', m);
  out.push('  timeline (sent, accepted, refused; accepted latency p50/max):');
  for (const t of r.timeline) out.push(`    +${String(t.fromS).padStart(4)}s  ${String(t.sent).padStart(4)} ${String(t.accepted).padStart(4)} ${String(t.refused).padStart(4)}   ${t.p50Ms ?? '—'}/${t.maxMs ?? '—'} ms`);
  if (r.lostEvidence.length) {
    out.push('  lost deliveries, first ones:');
    for (const l of r.lostEvidence) out.push(`    ${l}`);
  }
  out.push(r.failures.length ? `  FAIL: ${r.failures.join('; ')}` : '  PASS: nothing lost, nothing out of order, load held, every fault recovered');
  process.stdout.write(`${out.join('\n')}\n`);
}

/** Writes the report as JSON. */
export function writeReport(file: string, r: ChaosReport): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(r, null, 2)}\n`);
}
