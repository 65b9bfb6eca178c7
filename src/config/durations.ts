const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses `500ms`, `5s`, `15m`, `2h` or `5d` into milliseconds; undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(text.trim());
  return m ? Math.round(Number(m[1]) * units[m[2]!]!) : undefined;
}

/** Parses a comma-separated list of durations, e.g. `1m,5m,15m`; undefined when any is malformed. */
export function parseDurationList(text: string): number[] | undefined {
  const parts = text.split(',').map((p) => parseDuration(p));
  return parts.every((p): p is number => p !== undefined && p > 0) ? parts : undefined;
}
