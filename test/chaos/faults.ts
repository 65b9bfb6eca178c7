/**
 * The faults of a run, one at a time, spread over the load: SIGKILL a worker, an API process,
 * the database, the Temporal server and (with a broker subscription) the broker, each started
 * again after a short time on the same port and data; one subscription paused, then resumed (its
 * deliveries held, then drained); then one receiver refuses connections for the outage. The plan
 * scales with the run's length, so a 60 s run still injects them all.
 */
import { nowMs, sleep } from '../../stack/harness/stats';
import type { Role } from './stack';

export type FaultKind = 'worker' | 'api' | 'database' | 'temporal' | 'broker' | 'pause' | 'receiver';

export interface PlannedFault {
  kind: FaultKind;
  /** The role killed, or the subscriber's index (the receiver taken down, the subscription paused). */
  target: Role | number;
  /** Seconds after the load starts. */
  atS: number;
  /** Seconds it stays down before it is started again (the receiver: the outage; the pause: until the resume). */
  downS: number;
  /** The paused subscriber's tag. */
  tag?: string;
}

export interface FaultRecord extends PlannedFault {
  /** Epoch ms. */
  injectedAt: number;
  /** When the restart (or the receiver's `up`) began. */
  restartAt?: number;
  /** When it answered again. */
  recoveredAt?: number;
  error?: string;
  /** What the fault's recovery reported (the pause: deliveries held at the resume). */
  detail?: string;
}

/**
 * Lays the faults over `durationS`: a short lead-in, a slot of equal length each for, with
 * `pause` (the subscriber's index and tag), the pause of that subscription (for `pauseS`, at most
 * 70 % of its slot) and then the kills (four, five with `broker`; each kill near the start of its
 * slot, down for `downS` at most 40 % of the slot, so it recovers well before the next), then the
 * outage of one of the first `receivers` HTTP receivers (at most a third of the run), then a
 * short tail.
 */
export function planFaults(durationS: number, opts: { receiverOutageS: number; downS: number; seed: number; receivers: number; stack?: 'local' | 'cluster'; broker?: boolean; pause?: { index: number; tag: string }; pauseS?: number }): PlannedFault[] {
  const lead = Math.max(3, durationS * 0.05);
  const tail = Math.max(3, durationS * 0.05);
  const outage = Math.min(opts.receiverOutageS, durationS / 3);
  const pick = opts.seed % 2;
  const kills: Array<[FaultKind, Role]> = [
    ['worker', `worker-${pick}` as Role],
    ['api', `api-${1 - pick}` as Role],
    ['database', 'database'],
    // The cluster loses one of its two nodes (its shards move to the other), by the seed.
    ['temporal', opts.stack === 'cluster' ? (`temporal-${pick + 1}` as Role) : 'temporal'],
    ...(opts.broker ? [['broker', 'broker'] as [FaultKind, Role]] : []),
  ];
  const slots = kills.length + (opts.pause !== undefined ? 1 : 0);
  const slot = (durationS - lead - tail - outage) / slots;
  const down = Math.min(opts.downS, slot * 0.4);
  const round1 = (v: number) => Math.round(v * 10) / 10;
  const faults: PlannedFault[] = [];
  // First, so it holds deliveries while the load runs however late slow recoveries push the kills.
  if (opts.pause !== undefined) faults.push({ kind: 'pause', target: opts.pause.index, tag: opts.pause.tag, atS: round1(lead), downS: round1(Math.min(opts.pauseS ?? 10, slot * 0.7)) });
  const first = faults.length;
  faults.push(...kills.map(([kind, target], i) => ({ kind, target, atS: round1(lead + (first + i) * slot), downS: round1(down) })));
  faults.push({ kind: 'receiver', target: opts.seed % opts.receivers, atS: round1(lead + slots * slot), downS: round1(outage) });
  return faults;
}

export interface FaultActions {
  kill(role: Role): Promise<void>;
  start(role: Role): Promise<void>;
  receiverDown(index: number): Promise<void>;
  receiverUp(index: number): Promise<void>;
  pause(index: number): Promise<void>;
  /** Resumes the subscription; returns what to report (how many deliveries it held). */
  resume(index: number): Promise<string | undefined>;
}

/**
 * Injects the planned faults in order from `startedAt` (epoch ms). Each waits for the previous
 * one's recovery, so they never overlap; one that recovers late pushes the next back, and the
 * records hold the real times.
 */
export async function runFaults(plan: readonly PlannedFault[], startedAt: number, actions: FaultActions, log: (line: string) => void): Promise<FaultRecord[]> {
  const records: FaultRecord[] = [];
  for (const f of plan) {
    const wait = startedAt + f.atS * 1000 - nowMs();
    if (wait > 0) await sleep(wait);
    const rec: FaultRecord = { ...f, injectedAt: nowMs() };
    records.push(rec);
    const name = describeFault(f);
    const at = () => `+${((nowMs() - startedAt) / 1000).toFixed(1)}s`;
    try {
      log(`${at()} fault: ${name} (down ${f.downS}s)`);
      if (typeof f.target === 'number') await (f.kind === 'pause' ? actions.pause(f.target) : actions.receiverDown(f.target));
      else await actions.kill(f.target);
      await sleep(f.downS * 1000);
      rec.restartAt = nowMs();
      if (typeof f.target !== 'number') await actions.start(f.target);
      else if (f.kind === 'pause') {
        const detail = await actions.resume(f.target);
        if (detail) rec.detail = detail;
      } else await actions.receiverUp(f.target);
      rec.recoveredAt = nowMs();
      log(`${at()} recovered: ${name} (${((rec.recoveredAt - rec.restartAt) / 1000).toFixed(1)}s to answer again${rec.detail ? `; ${rec.detail}` : ''})`);
    } catch (err) {
      rec.error = (err as Error).message.split('\n')[0];
      log(`${at()} fault ${name} did not recover: ${(err as Error).message}`);
    }
  }
  return records;
}

/** `SIGKILL worker-0`, `receiver s2 refuses connections`, `subscription o0 paused`. */
export function describeFault(f: PlannedFault): string {
  if (typeof f.target !== 'number') return `SIGKILL ${f.target}`;
  return f.kind === 'pause' ? `subscription ${f.tag ?? f.target} paused` : `receiver s${f.target} refuses connections`;
}
