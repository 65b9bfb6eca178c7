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
