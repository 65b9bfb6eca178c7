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

/** A whole number typed in an optional box: empty for none, else the number or `error`. */
function parseCount(text: string, error: string): { value?: number } | { error: string } {
  const t = text.trim();
  if (!t) return {};
  return /^\d+$/.test(t) ? { value: Number(t) } : { error };
}

/** The rate limit typed in the portal: empty for none, else a whole number per second. */
export function parseRateLimit(text: string): { rateLimit?: number } | { error: string } {
  const r = parseCount(text, 'The rate limit must be a whole number of deliveries per second.');
  return 'error' in r ? r : r.value === undefined ? {} : { rateLimit: r.value };
}

/** The most POSTs at once typed in the portal: empty for the service default, else a whole number. */
export function parseMaxInFlight(text: string): { maxInFlight?: number } | { error: string } {
  const r = parseCount(text, 'The most deliveries at once must be a whole number.');
  return 'error' in r ? r : r.value === undefined ? {} : { maxInFlight: r.value };
}
