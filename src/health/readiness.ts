import type { Db } from 'mongodb';
import type { DependencyState, Readiness } from '../contract/types';
import { withTimeout } from '../lib/timing';

export interface ReadinessDeps {
  db: Db;
  temporal: { ping(timeoutMs?: number): Promise<void> };
  timeoutMs?: number;
}

async function state(check: () => Promise<unknown>, ms: number): Promise<DependencyState> {
  try {
    await withTimeout(check(), ms, 'dependency check');
    return 'up';
  } catch {
    return 'down';
  }
}

/** Checks MongoDB and Temporal in parallel, each bounded by a short timeout. */
export async function checkReadiness(deps: ReadinessDeps): Promise<Readiness> {
  const ms = deps.timeoutMs ?? 2000;
  const [mongodb, temporal] = await Promise.all([
    state(() => deps.db.command({ ping: 1 }), ms),
    state(() => deps.temporal.ping(ms), ms),
  ]);
  return { status: mongodb === 'up' && temporal === 'up' ? 'ready' : 'unavailable', checks: { mongodb, temporal } };
}
