import { useEffect, useState } from 'preact/hooks';
import type { WebhookServiceClient } from '../../client';
import { outcome } from './api';
import { formatTime } from './format';
import { nextText, waitText } from './timeline-text';
import type { DeliveryTimeline } from './types';

interface Props {
  client: WebhookServiceClient;
  subscriptionId: string;
  eventId: string;
  /** Changes when the delivery moves on (its state or attempt count): an open timeline reloads then. */
  stamp: string;
}

type Loaded = { kind: 'idle' } | { kind: 'error'; message: string } | { kind: 'ready'; timeline: DeliveryTimeline };

/** One event's delivery as a timeline: attempts and every wait with its reason and end, then what happens next; read when opened. */
export function DeliveryTimelineView({ client, subscriptionId, eventId, stamp }: Props) {
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'idle' });
  useEffect(() => {
    if (!open) return;
    let live = true;
    void outcome(
      client.GET('/api/webhooks/v1/subscriptions/{subscription_id}/events/{event_id}/delivery', { params: { path: { subscription_id: subscriptionId, event_id: eventId } } }),
    ).then((r) => {
      if (live) setLoaded(r.ok ? { kind: 'ready', timeline: r.data } : { kind: 'error', message: r.message });
    });
    return () => {
      live = false;
    };
  }, [open, stamp, client, subscriptionId, eventId]);

  return (
    <details data-testid="delivery-timeline" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Timeline</summary>
      {open && loaded.kind === 'idle' && <p aria-busy="true">Loading the timeline…</p>}
      {loaded.kind === 'error' && <p class="error">Could not load the timeline: {loaded.message}</p>}
      {loaded.kind === 'ready' && <TimelineSteps timeline={loaded.timeline} />}
    </details>
  );
}

/** Attempts and waits in the order they happened, then what comes next. */
function TimelineSteps({ timeline }: { timeline: DeliveryTimeline }) {
  const steps: Array<{ key: string; kind: 'attempt' | 'wait'; reason?: string; text: string }> = [];
  const waitsAfter = (n: number) => timeline.waits.filter((w) => w.after_attempt === n);
  const pushWaits = (n: number) => waitsAfter(n).forEach((w, i) => steps.push({ key: `w${n}.${i}`, kind: 'wait', reason: w.reason, text: waitText(w) }));
  pushWaits(0);
  for (const a of timeline.attempts) {
    const answer = a.status_code !== undefined ? `${a.outcome} ${a.status_code}` : a.outcome;
    steps.push({ key: `a${a.attempt}`, kind: 'attempt', text: `Attempt ${a.attempt} at ${formatTime(a.started_at)}: ${answer}` });
    pushWaits(a.attempt);
  }
  return (
    <>
      <ol class="timeline">
        {steps.map((s) => (
          <li key={s.key} data-testid={s.kind === 'wait' ? 'timeline-wait' : 'timeline-attempt'} data-reason={s.reason}>
            {s.text}
          </li>
        ))}
      </ol>
      <p data-testid="timeline-next" data-final={String(timeline.next.final)} data-state={timeline.next.state}>
        {nextText(timeline.next)}
      </p>
    </>
  );
}
