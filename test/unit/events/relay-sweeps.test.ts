import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DispatchNote, DispatchNotes } from '../../../src/events/dispatch-notes';
import { RELAY_SWEEP_EVERY, type RelayDeps, startRelay } from '../../../src/events/relay';
import type { Logger } from '../../../src/logger';

/** Relay deps whose notes record each pass's scope and return `found(scope)` redelivery notes of a gone event (dropped at once). */
function fakeDeps(found: (scope: string) => number) {
  const scopes: string[] = [];
  const notes = {
    due: (_before: Date, _limit: number, scope = 'all') => {
      scopes.push(scope);
      return Promise.resolve(Array.from({ length: found(scope) }, (_, i): DispatchNote => ({ _id: `rdl_${i}`, kind: 'redelivery', event_id: 'gone', subscription_ids: [], created_at: new Date(0) })));
    },
    remove: () => Promise.resolve(),
  } as unknown as DispatchNotes;
  const logger = { info: () => {}, warn: () => {} } as unknown as Logger;
  const deps = { notes, events: { find: () => Promise.resolve(undefined) }, logger } as unknown as RelayDeps;
  return { deps, scopes };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('startRelay', () => {
  it("reads held writes' notes on its first pass and every tenth, the others only notes not held", async () => {
    vi.useFakeTimers();
    const { deps, scopes } = fakeDeps(() => 0);
    const relay = startRelay(deps, 100);
    await vi.advanceTimersByTimeAsync(100 * (RELAY_SWEEP_EVERY + 2) + 50);
    await relay.stop();
    expect(scopes).toEqual(['all', ...Array<string>(RELAY_SWEEP_EVERY - 1).fill('unheld'), 'all', 'unheld']);
  });

  it('sweeps again at once after a sweep that read a full batch', async () => {
    vi.useFakeTimers();
    let fullSweeps = 2;
    const { deps, scopes } = fakeDeps((scope) => (scope === 'all' && fullSweeps-- > 0 ? 200 : 0));
    const relay = startRelay(deps, 100);
    await vi.advanceTimersByTimeAsync(100 * 5 + 50);
    await relay.stop();
    expect(scopes).toEqual(['all', 'all', 'all', 'unheld', 'unheld']);
  });
});
