/** CPU accounting from /proc (Linux): per-process utime+stime and whole-machine busy time. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { descendants, statFields } from '../runtime/proc-tree';

/** Clock ticks per second (`getconf CLK_TCK`, 100 on nearly every Linux). */
export const clockTicks: number = (() => {
  try {
    const v = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isFinite(v) && v > 0 ? v : 100;
  } catch {
    return 100;
  }
})();

/** utime+stime of one live process (all its threads), in seconds; 0 if it is gone. */
export function processCpuSeconds(pid: number): number {
  const f = statFields(pid);
  if (!f) return 0;
  return (Number(f[11]) + Number(f[12])) / clockTicks;
}

/** CPU seconds of a process plus its live descendants (e.g. tsx's esbuild helper). */
export function treeCpuSeconds(pid: number): number {
  return [pid, ...descendants(pid)].reduce((sum, p) => sum + processCpuSeconds(p), 0);
}

/** Whole-machine busy and total CPU seconds since boot, from /proc/stat (all cores). */
export function machineCpuSeconds(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = v;
  const busy = user + nice + system + irq + softirq + steal;
  return { busy: busy / clockTicks, total: (busy + idle + iowait) / clockTicks };
}

/** The 1, 5 and 15 minute load averages. */
export const loadAverage = (): number[] => loadavg().map((l) => Math.round(l * 100) / 100);

/** Snapshots CPU of named process trees and the machine, to diff over a run. */
export class CpuMeter {
  /**
   * `trees`: roles measured with their descendants (a service process and e.g. tsx's esbuild
   * helper); `single`: roles measured alone (the bench process, whose descendants are the others).
   */
  constructor(
    private readonly trees: () => Record<string, number | undefined>,
    private readonly single: () => Record<string, number | undefined> = () => ({}),
  ) {}

  snapshot() {
    const perRole: Record<string, number> = {};
    for (const [role, pid] of Object.entries(this.trees())) perRole[role] = pid ? treeCpuSeconds(pid) : 0;
    for (const [role, pid] of Object.entries(this.single())) perRole[role] = pid ? processCpuSeconds(pid) : 0;
    return { at: performance.now(), perRole, machine: machineCpuSeconds() };
  }

  static diff(a: CpuSnapshot, b: CpuSnapshot) {
    const perRole: Record<string, number> = {};
    for (const role of Object.keys(b.perRole)) perRole[role] = round3((b.perRole[role] ?? 0) - (a.perRole[role] ?? 0));
    return {
      wallSeconds: round3((b.at - a.at) / 1000),
      perRole,
      machineBusySeconds: round3(b.machine.busy - a.machine.busy),
      machineTotalSeconds: round3(b.machine.total - a.machine.total),
    };
  }
}

/** CPU seconds per role and of the whole machine at one moment. */
export type CpuSnapshot = ReturnType<CpuMeter['snapshot']>;
/** CPU seconds per role and of the whole machine between two snapshots, with the wall time. */
export type CpuUsage = ReturnType<typeof CpuMeter.diff>;

const round3 = (v: number) => Math.round(v * 1000) / 1000;
