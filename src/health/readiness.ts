import type { Db } from 'mongodb';
import type { DependencyState, Readiness } from '../contract/types';
import { withTimeout } from '../lib/timing';

export interface ReadinessDeps {
  db: Db;
  temporal: { ping(timeoutMs?: number): Promise<void> };
  timeoutMs?: number;
  /** This process's admission (absent: not checked): `saturated` when every place in flight has been taken for a while. */
  admission?: (() => AdmissionState) | undefined;
}

/** Whether the API process can take more requests. */
export type AdmissionState = 'open' | 'saturated';

async function state(check: () => Promise<unknown>, ms: number): Promise<DependencyState> {
  try {
    await withTimeout(check(), ms, 'dependency check');
    return 'up';
  } catch {
    return 'down';
  }
}

/**
 * Checks MongoDB and Temporal in parallel, each bounded by a short timeout, and the process's own
 * admission: a process whose every place in flight stays taken cannot serve, whatever its dependencies.
 */
export async function checkReadiness(deps: ReadinessDeps): Promise<Readiness> {
  const ms = deps.timeoutMs ?? 2000;
  const [mongodb, temporal] = await Promise.all([
    state(() => deps.db.command({ ping: 1 }), ms),
    state(() => deps.temporal.ping(ms), ms),
  ]);
  const admission = deps.admission?.();
  const ready = mongodb === 'up' && temporal === 'up' && admission !== 'saturated';
  return { status: ready ? 'ready' : 'unavailable', checks: { mongodb, temporal, ...(admission ? { admission } : {}) } };
}
