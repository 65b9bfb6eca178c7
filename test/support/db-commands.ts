import type { DbCommandCounter } from '../../src/telemetry/db-commands';

/** Commands by `<command> <collection>`, read from a counter. */
export async function counts(counter: DbCommandCounter): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const { labels, value } of (await counter.get()).values) out[`${String(labels.command)} ${String(labels.collection ?? '')}`.trim()] = value;
  return out;
}

/** What moved between two readings, without the unchanged entries. */
export function moved(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(after).flatMap(([k, v]) => (v - (before[k] ?? 0) > 0 ? [[k, v - (before[k] ?? 0)]] : [])));
}

/** Every command of a reading. */
export const total = (c: Record<string, number>): number => Object.values(c).reduce((a, b) => a + b, 0);
