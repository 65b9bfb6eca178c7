/** The fields of an attempt the grouping reads. */
export interface AttemptLike {
  event_id: string;
  attempt: number;
  started_at: string;
  state: string;
}

/** One event's attempts to a subscription, newest attempt first. */
export interface EventAttempts<A extends AttemptLike> {
  eventId: string;
  /** Where the delivery stands after its latest attempt. */
  state: string;
  attempts: A[];
}

/**
 * Groups a newest-first list of attempts by event, the event with the most recent attempt first;
 * each group's `state` is that of its latest attempt.
 */
export function groupByEvent<A extends AttemptLike>(attempts: readonly A[]): EventAttempts<A>[] {
  const groups = new Map<string, A[]>();
  for (const a of attempts) {
    const list = groups.get(a.event_id);
    if (list) list.push(a);
    else groups.set(a.event_id, [a]);
  }
  const latest = (list: A[]) => list.reduce((best, a) => (a.started_at > best.started_at || (a.started_at === best.started_at && a.attempt > best.attempt) ? a : best));
  return [...groups.entries()]
    .map(([eventId, list]) => {
      const sorted = [...list].sort((x, y) => (x.started_at === y.started_at ? y.attempt - x.attempt : x.started_at < y.started_at ? 1 : -1));
      return { eventId, state: latest(list).state, attempts: sorted };
    })
    .sort((x, y) => (x.attempts[0]!.started_at < y.attempts[0]!.started_at ? 1 : -1));
}

/** Whether some event's delivery is still retrying (the page keeps polling while so). */
export function anyRetrying(groups: readonly EventAttempts<AttemptLike>[]): boolean {
  return groups.some((g) => g.state === 'retrying');
}
