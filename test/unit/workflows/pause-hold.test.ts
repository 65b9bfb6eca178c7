import { describe, expect, it } from 'vitest';
import { applySteps, type DeliveryPolicy, type Due, followUpsOfRound, heldByPause, pauseAlertKey, settleRound, type SubscriberStatus } from '../../../workflows/delivery-model';
import { drainGapMs, releaseHeld } from '../../../src/deliveries/drain';
import type { HeldDeliveryRepository } from '../../../src/deliveries/held';

const policy: DeliveryPolicy = { scheduleMs: [60_000], maxAttempts: 3, jitterRatio: 0 };

describe('a delivery held by a pause', () => {
  it('waits until the hold limit (or the next look), keeps its attempt number, and records the hold', () => {
    const due: Array<[string, Due]> = [['sub_a', { attempt: 2, at: 0 }]];
    const [step] = settleRound(policy, due, [{ outcome: 'deferred', reason: 'subscription paused', hold: 'paused', waitMs: 30_000 }], [0], 1000);
    expect(step).toMatchObject({ kind: 'deferred', next: { attempt: 2, at: 31_000, held: [{ reason: 'paused', from: 1000, until: 31_000, times: 1 }] } });
    expect(heldByPause((step as { next: Due }).next)).toBe(true);
    expect(heldByPause({ attempt: 1, at: 0, held: [{ reason: 'rate_limit', from: 0, until: 1, times: 1 }] })).toBe(false);
  });

  it('fails past the hold limit, unattempted and unlogged, with one alert keyed by the pause', () => {
    const due: Array<[string, Due]> = [['sub_a', { attempt: 1, at: 0 }]];
    const steps = settleRound(policy, due, [{ outcome: 'expired', reason: 'held longer than the hold limit', pausedAt: 42 }], [0], 1000);
    const statuses: Record<string, SubscriberStatus> = { sub_a: { state: 'retrying', attempts: 0, nextAttemptAt: 5 } };
    const pending = new Map<string, Due>(due);
    applySteps(steps, 'unlogged', statuses, pending);
    expect(statuses.sub_a).toEqual({ state: 'failed', attempts: 0, failReason: 'held longer than the hold limit' });
    expect(pending.size).toBe(0);
    const alerts = [...followUpsOfRound('evt_1', steps), ...followUpsOfRound('evt_2', steps)];
    expect(new Set(alerts.map((a) => a.kind === 'alert' && a.key))).toEqual(new Set([pauseAlertKey(42)]));
  });
});

describe('the drain of a resumed subscription', () => {
  it('spaces slots at the drain rate, a tenth below a subscription’s own rate_limit', () => {
    expect(drainGapMs(10, false)).toBe(100);
    expect(drainGapMs(4, true)).toBe(275);
  });

  it('wakes the held deliveries oldest event first, each with its slot; disabled or deleted: now', async () => {
    const held = ['wf/1', 'wf/2', 'wf/3'].map((workflow_id, i) => ({ _id: `${workflow_id}#sub_a`, workflow_id, emitted_at: new Date(i) }));
    // An array is an iterable the drain's for-await reads as the cursor.
    const repo = { inEmissionOrder: () => held } as unknown as HeldDeliveryRepository;
    const woken: Array<[string, number | undefined]> = [];
    const wake = (id: string, _sub: string, at?: number) => {
      woken.push([id, at]);
      return id === 'wf/2' ? Promise.reject(new Error('workflow not found')) : Promise.resolve();
    };
    expect(await releaseHeld({ held: repo, wake, drainRate: 2, now: () => 1000 }, { _id: 'sub_a' }, 'active')).toBe(2);
    expect(woken).toEqual([
      ['wf/1', 1500],
      ['wf/2', 2000],
      ['wf/3', 2500],
    ]);
    woken.length = 0;
    await releaseHeld({ held: repo, wake, drainRate: 2 }, { _id: 'sub_a', rate_limit: 5 }, 'gone');
    expect(woken.map(([, at]) => at)).toEqual([undefined, undefined, undefined]);
  });
});
