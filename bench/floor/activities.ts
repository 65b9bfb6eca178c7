/** Counts completions (bench only); the floor bench reads the counter. */
export const completions = { children: 0, times: [] as number[] };

// Activities must return promises; this one has nothing to wait for.
export function touch(id: string): Promise<void> {
  if (!id.endsWith('/targets')) {
    completions.children++;
    completions.times.push(performance.now());
  }
  return Promise.resolve();
}

/** A round of deliveries in one activity (the service's 1.0 shape); ids ending in /log are its log write. */
export function touchAll(ids: string[]): Promise<void> {
  for (const id of ids) if (!id.endsWith('/log')) void touch(id);
  return Promise.resolve();
}
