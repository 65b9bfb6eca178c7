import { describe, expect, it } from 'vitest';
import { anyUnsettled, appendPage, eventRows, eventsMissingAttempts, mergeFirstPage, payloadText, uniqueById } from '../../../src/portal/ui/event-list';

const event = (id: string, attempts = 0, delivery_state = attempts ? 'delivered' : 'pending') => ({ id, attempts, delivery_state });
const attempt = (event_id: string, n: number, started_at: string) => ({ id: `${event_id}-${n}`, event_id, attempt: n, started_at, state: 'delivered' });

describe("the portal's event list", () => {
  it('merges a fresh first page over the loaded list: its events first and updated, older loaded ones kept after it', () => {
    const loaded = [event('e3'), event('e2'), event('e1')];
    const fresh = [event('e4'), event('e3', 1)];
    expect(mergeFirstPage(loaded, fresh)).toEqual([event('e4'), event('e3', 1), event('e2'), event('e1')]);
    expect(mergeFirstPage([], fresh)).toEqual(fresh);
  });

  it('appends an older page, skipping events already listed', () => {
    expect(appendPage([event('e3'), event('e2')], [event('e2'), event('e1')]).map((e) => e.id)).toEqual(['e3', 'e2', 'e1']);
  });

  it("gives each event its attempts, newest first, and counts those it has that are not loaded", () => {
    const rows = eventRows(
      [event('e2', 1), event('e1', 3)],
      [attempt('e1', 1, '2025-01-15T08:00:00Z'), attempt('e2', 1, '2025-01-15T08:05:00Z'), attempt('e1', 2, '2025-01-15T08:01:00Z'), attempt('e1', 2, '2025-01-15T08:01:00Z')],
    );
    expect(rows.map((r) => [r.event.id, r.attempts.map((a) => a.attempt), r.missing])).toEqual([
      ['e2', [1], 0],
      ['e1', [2, 1], 1],
    ]);
    expect(eventsMissingAttempts(rows)).toEqual(['e1']);
    // Attempts newer than the event's count (loaded after it): nothing missing, never negative.
    expect(eventRows([event('e2', 0)], [attempt('e2', 1, '2025-01-15T08:05:00Z')])[0]!.missing).toBe(0);
  });

  it('keeps polling while a delivery is pending or retrying, not once all are settled', () => {
    expect(anyUnsettled([event('a', 1), event('b', 0)])).toBe(true);
    expect(anyUnsettled([event('a', 1, 'retrying')])).toBe(true);
    expect(anyUnsettled([event('a', 1), event('b', 2, 'failed'), event('c', 1, 'stopped')])).toBe(false);
    expect(anyUnsettled([])).toBe(false);
  });

  it('drops repeated ids, and shows a payload as indented JSON', () => {
    expect(uniqueById([{ id: 'a' }, { id: 'b' }, { id: 'a' }]).map((x) => x.id)).toEqual(['a', 'b']);
    expect(payloadText({ a: 1, b: { c: 'x' } })).toBe('{\n  "a": 1,\n  "b": {\n    "c": "x"\n  }\n}');
    expect(payloadText(undefined)).toBe('null');
  });
});
