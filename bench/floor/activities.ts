/** The floor's only activities: they count each "delivery" and when it ran (bench only). */
export const completions = { deliveries: 0, times: [] as number[] };

/** Forgets what was counted, before a measured run. */
export function resetCompletions(): void {
  completions.deliveries = 0;
  completions.times.length = 0;
}

// Activities must return promises; this one has nothing to wait for.
/** One delivery (ids ending in /targets are the pre-1.0 parent's lookup, not a delivery). */
export function touch(id: string): Promise<void> {
  if (!id.endsWith('/targets')) {
    completions.deliveries++;
    completions.times.push(performance.now());
  }
  return Promise.resolve();
}

/** A round of deliveries in one activity (the service's shape); ids ending in /log are its log write. */
export function touchAll(ids: string[]): Promise<void> {
  for (const id of ids) if (!id.endsWith('/log')) void touch(id);
  return Promise.resolve();
}
