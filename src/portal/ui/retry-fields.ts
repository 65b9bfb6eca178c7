/** The retry schedule typed in the portal: waits separated by commas or spaces (`30s, 5m, 1h`) and the attempts. */
export function parseRetryFields(scheduleText: string, attemptsText: string): { retry?: { schedule: string[]; max_attempts: number } } | { error: string } {
  const schedule = scheduleText.split(/[\s,]+/).filter(Boolean);
  const attempts = attemptsText.trim();
  // Both empty: the service's schedule. The server checks each bound and names the field.
  if (!schedule.length && !attempts) return {};
  if (!schedule.length || !attempts) return { error: 'Give both the retry waits and the attempts, or neither for the service’s schedule.' };
  if (!/^\d+$/.test(attempts)) return { error: 'Attempts must be a whole number.' };
  return { retry: { schedule, max_attempts: Number(attempts) } };
}

/** The rate limit typed in the portal: empty for none, else a whole number per second. */
export function parseRateLimit(text: string): { rateLimit?: number } | { error: string } {
  const t = text.trim();
  if (!t) return {};
  return /^\d+$/.test(t) ? { rateLimit: Number(t) } : { error: 'The rate limit must be a whole number of deliveries per second.' };
}
