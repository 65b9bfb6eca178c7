/**
 * Where an event's time goes inside Temporal, from a sample of workflow histories: the gap
 * between consecutive events, grouped by what the gap is (a task waiting for a worker slot or
 * poller, the worker running a task with its local activities, a retry timer, a part being
 * started).
 */
import type { Client } from '@temporalio/client';
import { type Summary, summarize } from './stats';

const names: Record<number, string> = {
  1: 'started',
  2: 'completed',
  3: 'failed',
  5: 'wft-scheduled',
  6: 'wft-started',
  7: 'wft-completed',
  10: 'activity-scheduled',
  11: 'activity-started',
  12: 'activity-completed',
  17: 'timer-started',
  18: 'timer-fired',
  25: 'marker',
  26: 'signaled',
  29: 'child-initiated',
  31: 'child-started',
  32: 'child-completed',
  40: 'search-attributes-upserted',
};

/** What a gap between two event types means. */
const meaning: Record<string, string> = {
  'started→wft-scheduled': 'workflow started → first task scheduled',
  'wft-scheduled→wft-started': 'workflow task waits for a worker (queue)',
  'wft-started→wft-completed': 'worker runs a workflow task (incl. local activities and RPC)',
  'timer-started→timer-fired': 'waits for a retry (durable timer)',
  'activity-scheduled→activity-started': 'activity task waits for a worker (queue)',
  'activity-started→activity-completed': 'activity runs (incl. RPC)',
};

function ms(t: { seconds?: unknown; nanos?: number | null } | null | undefined): number {
  return Number(t?.seconds ?? 0) * 1000 + (t?.nanos ?? 0) / 1e6;
}

export interface HistoryBreakdown {
  workflows: number;
  /** Per kind of gap: its latency summary (ms) and total share of the workflows' time. */
  gaps: Record<string, Summary & { sharePercent: number }>;
  /** Whole workflow, first event to last (ms). */
  total: Summary;
  /** Workflow tasks per workflow (mean). */
  workflowTasksPerWorkflow: number;
}

/** Fetches each workflow's history and sums its gaps by kind. */
export async function historyBreakdown(client: Client, workflowIds: string[]): Promise<HistoryBreakdown> {
  const gaps = new Map<string, number[]>();
  const totals: number[] = [];
  let wfts = 0;
  let sumAll = 0;
  for (const id of workflowIds) {
    const h = await client.workflow.getHandle(id).fetchHistory();
    const events = h.events ?? [];
    if (!events.length) continue;
    const times = events.map((e) => ms(e.eventTime));
    totals.push(times[times.length - 1]! - times[0]!);
    sumAll += times[times.length - 1]! - times[0]!;
    for (let i = 1; i < events.length; i++) {
      const a = names[Number(events[i - 1]!.eventType)] ?? String(events[i - 1]!.eventType);
      const b = names[Number(events[i]!.eventType)] ?? String(events[i]!.eventType);
      if (b === 'wft-started') wfts++;
      const key = `${a}→${b}`;
      const label = meaning[key] ?? key;
      const list = gaps.get(label) ?? [];
      list.push(times[i]! - times[i - 1]!);
      gaps.set(label, list);
    }
  }
  const out: HistoryBreakdown['gaps'] = {};
  for (const [k, v] of [...gaps].sort((x, y) => y[1].reduce((a, b) => a + b, 0) - x[1].reduce((a, b) => a + b, 0))) {
    const sum = v.reduce((a, b) => a + b, 0);
    if (sum < 0.5) continue;
    out[k] = { ...summarize(v), sharePercent: Math.round((1000 * sum) / Math.max(1, sumAll)) / 10 };
  }
  return { workflows: totals.length, gaps: out, total: summarize(totals), workflowTasksPerWorkflow: Math.round((10 * wfts) / Math.max(1, totals.length)) / 10 };
}
