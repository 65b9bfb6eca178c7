import { formatTime } from './format';
import type { DeliveryNext, DeliveryWait } from './types';

/** A wait of a delivery's timeline in words: why, and until when. */
export function waitText(w: DeliveryWait): string {
  const until = `until ${formatTime(w.ends_at)}`;
  const n = w.backoff ? `${w.backoff.wait}${w.backoff.of ? ` of ${w.backoff.of}` : ''}` : '';
  switch (w.reason) {
    case 'backoff':
      return `Backoff ${n} (retry schedule) ${until}`;
    case 'retry_after':
      return `Receiver's Retry-After (longer than backoff ${n}) ${until}`;
    case 'rate_limit':
      return `Held by rate_limit (put off ${w.deferrals ?? 1}×) ${until}`;
    case 'max_in_flight':
      return `Held by max_in_flight (put off ${w.deferrals ?? 1}×) ${until}`;
    case 'pull_outcome':
      return `Waiting for the pull consumer's outcome ${until}`;
  }
}

/** What happens next to a delivery, in words. */
export function nextText(next: DeliveryNext): string {
  if (next.final) return `Final: ${next.state}${next.reason ? ` (${next.reason})` : ''}`;
  if (next.state === 'cancelled') return `Cancelled at ${formatTime(next.at)}${next.reason ? ` (${next.reason})` : ''}`;
  if (next.waiting) {
    const w = next.waiting;
    const state = w.event_state === 'not_logged' ? 'not logged yet' : 'still being delivered';
    return `Next: attempt ${next.attempt ?? 1} once event ${w.event_id} (before it in key ${w.key}, ${state}) is delivered; waiting since ${formatTime(w.started_at)}`;
  }
  return `Next: attempt ${next.attempt ?? 1}${next.at ? ` at ${formatTime(next.at)}` : ' as soon as the worker gets to it'}`;
}
