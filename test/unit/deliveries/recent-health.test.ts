import { describe, expect, it } from 'vitest';
import { newId } from '../../../src/db/ids';
import { eventGroups, groupsBetween } from '../../../src/deliveries/event-groups';
import { recentHealth } from '../../../src/deliveries/recent-health';

const now = Date.parse('2026-11-26T12:00:00.000Z');
const since = new Date(now - 3600_000);
const row = (emitted: number, outcome: 'delivered' | 'http_error', startedAt = emitted + 100) => ({ event_id: newId('evt', emitted), outcome, started_at: new Date(startedAt) });

describe('recentHealth', () => {
  it('counts attempts since the window start to events emitted in it', () => {
    const rows = [row(now - 60_000, 'delivered'), row(now - 120_000, 'http_error'), row(now - 7200_000, 'delivered'), row(now - 7200_000, 'delivered', now - 60_000)];
    expect(recentHealth('sub_1', rows, since)).toEqual({ subscription_id: 'sub_1', since: since.toISOString(), attempts: 2, delivered: 1, success_rate: 0.5 });
  });

  it('has no rate without attempts', () => {
    expect(recentHealth('sub_1', [], since)).not.toHaveProperty('success_rate');
  });
});

describe('groupsBetween', () => {
  it("names the groups every event of the window is in, two or three of one width", () => {
    const groups = groupsBetween('sub_1', since.getTime(), now);
    expect(groups.length).toBeGreaterThanOrEqual(2);
    expect(groups.length).toBeLessThanOrEqual(3);
    for (let t = since.getTime(); t <= now; t += 60_000) {
      expect(eventGroups('sub_1', newId('evt', t)).some((g) => groups.includes(g))).toBe(true);
    }
  });
});
