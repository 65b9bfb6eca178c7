import { describe, expect, it } from 'vitest';
import { localInputToIso } from '../../../src/portal/ui/format';
import { anyRetrying, groupByEvent } from '../../../src/portal/ui/group-attempts';
import { problemText } from '../../../src/portal/ui/problem-text';

const attempt = (event_id: string, attempt: number, started_at: string, state: string) => ({ id: `${event_id}-${attempt}`, event_id, attempt, started_at, state });

describe('the portal\'s attempts view', () => {
  it('groups attempts by event, latest event first, each with the state of its latest attempt', () => {
    const groups = groupByEvent([
      attempt('evt_b', 1, '2025-01-15T08:03:00Z', 'retrying'),
      attempt('evt_a', 2, '2025-01-15T08:02:00Z', 'delivered'),
      attempt('evt_a', 1, '2025-01-15T08:01:00Z', 'retrying'),
    ]);
    expect(groups.map((g) => [g.eventId, g.state, g.attempts.map((a) => a.attempt)])).toEqual([
      ['evt_b', 'retrying', [1]],
      ['evt_a', 'delivered', [2, 1]],
    ]);
    expect(anyRetrying(groups)).toBe(true);
    expect(anyRetrying(groupByEvent([attempt('evt_a', 1, '2025-01-15T08:01:00Z', 'delivered')]))).toBe(false);
  });

  it('turns a datetime-local value into an instant, and nothing into nothing', () => {
    expect(localInputToIso('2025-01-15T08:00')).toBe(new Date(2025, 0, 15, 8, 0).toISOString());
    expect(localInputToIso('')).toBeUndefined();
    expect(localInputToIso('not a date')).toBeUndefined();
  });

  it('shows a problem\'s detail (with its first field error), else its title, else the status', () => {
    expect(problemText({ title: 'Conflict', status: 409, detail: 'Subscription sub_x is paused' }, 409)).toBe('Subscription sub_x is paused');
    expect(problemText({ title: 'Bad Request', status: 400, errors: [{ path: '/body/url', message: 'must match format "uri"' }] }, 400)).toBe(
      'Bad Request (/body/url: must match format "uri")',
    );
    expect(problemText(undefined, 502)).toBe('The server answered 502.');
  });
});
