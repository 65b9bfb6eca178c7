import type { RoundInput } from '../../activities/deliver-round';

/** One round of attempt 1 of `eventId` to `subscriptionId`, settled by a three-attempt schedule (what a broker test delivers). */
export function firstRound(eventId: string, subscriptionId: string): RoundInput {
  return {
    eventId,
    attempts: [{ eventId, subscriptionId, attempt: 1 }],
    policy: { scheduleMs: [1000], maxAttempts: 3, jitterRatio: 0 },
    due: [[subscriptionId, { attempt: 1, at: 0 }]],
    randoms: [0],
    origin: `event-${eventId}`,
  };
}
