import { upsertSearchAttributes } from '@temporalio/workflow';
import { aggregateState, type SubscriberStatus, subscriptionsIn } from './delivery-model';
import { deliveryStateKey, failedKey, retryingKey } from './search-attributes';

interface Visible {
  state: string;
  retrying: string[];
  failed: string[];
}

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Keeps the event workflow's state, retrying and failed search attributes current: each
 * {@link sync} upserts what changed since the last one (each upsert is a history event), or
 * nothing.
 */
export class SearchAttributeSync {
  /** What the starter set (see eventSearchAttributes). */
  private shown: Visible = { state: 'attempting', retrying: [], failed: [] };

  constructor(private readonly statuses: Record<string, SubscriberStatus>) {}

  sync(): void {
    const now = this.current();
    const changes = [
      ...(now.state !== this.shown.state ? [{ key: deliveryStateKey, value: now.state }] : []),
      // An empty list is removed rather than stored, so "is set" filters work.
      ...(!same(now.retrying, this.shown.retrying) ? [{ key: retryingKey, value: now.retrying.length ? now.retrying : null }] : []),
      ...(!same(now.failed, this.shown.failed) ? [{ key: failedKey, value: now.failed.length ? now.failed : null }] : []),
    ];
    if (changes.length > 0) upsertSearchAttributes(changes);
    this.shown = now;
  }

  private current(): Visible {
    // A delivery making its next attempt still counts as retrying: no flapping upsert per retry.
    const shown: Record<string, SubscriberStatus> = {};
    for (const [id, s] of Object.entries(this.statuses)) shown[id] = s.state === 'attempting' && s.attempts > 0 ? { ...s, state: 'retrying' } : s;
    return {
      state: aggregateState(Object.values(shown).map((s) => s.state)),
      retrying: subscriptionsIn(shown, 'retrying'),
      failed: subscriptionsIn(shown, 'failed', 'stopped'),
    };
  }
}
