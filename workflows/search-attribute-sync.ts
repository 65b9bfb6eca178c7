import { condition, upsertSearchAttributes } from '@temporalio/workflow';
import { aggregateState, type SubscriberStatus, subscriptionsIn } from './delivery-state';
import { deliveryStateKey, failedKey, retryingKey } from './search-attributes';

interface Visible {
  state: string;
  retrying: string[];
  failed: string[];
}

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Keeps the event workflow's state, retrying and failed search attributes current: upserted
 * once per activation in which they changed (each upsert is a history event), never otherwise.
 */
export class SearchAttributeSync {
  /** What the starter set (see eventSearchAttributes). */
  private shown: Visible = { state: 'attempting', retrying: [], failed: [] };
  private closed = false;
  private readonly loop: Promise<void>;

  constructor(private readonly statuses: Record<string, SubscriberStatus>) {
    this.loop = this.run();
  }

  /** Upserts the final values and stops. */
  async close(): Promise<void> {
    this.closed = true;
    await this.loop;
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

  private changed(now: Visible): boolean {
    return now.state !== this.shown.state || !same(now.retrying, this.shown.retrying) || !same(now.failed, this.shown.failed);
  }

  private async run(): Promise<void> {
    for (;;) {
      await condition(() => this.closed || this.changed(this.current()));
      const now = this.current();
      if (this.changed(now)) {
        upsertSearchAttributes([
          ...(now.state !== this.shown.state ? [{ key: deliveryStateKey, value: now.state }] : []),
          // An empty list is removed rather than stored, so "is set" filters work.
          ...(!same(now.retrying, this.shown.retrying) ? [{ key: retryingKey, value: now.retrying.length ? now.retrying : null }] : []),
          ...(!same(now.failed, this.shown.failed) ? [{ key: failedKey, value: now.failed.length ? now.failed : null }] : []),
        ]);
        this.shown = now;
      }
      if (this.closed) return;
    }
  }
}
