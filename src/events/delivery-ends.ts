import type { Db } from 'mongodb';
import { AttemptRepository } from '../deliveries/attempts';
import type { RunState, WorkflowRuns } from '../temporal/workflow-runs';
import { eventWorkflowId, heldDeliveryWorkflowId, seriesId } from '../../workflows/ids';
import { firstHeldId, HeldDeliveryRepository, heldId } from '../deliveries/held';
import { DispatchNotes } from './dispatch-notes';

/**
 * Whether an event's own delivery to a subscription is over, when no ordering mark says so: its
 * workflow ended it without one (terminated, timed out, reset, or run by a worker without the
 * ordering gate). Cheapest first: its own attempt series reached a final state in the attempt
 * log; else its workflow (the parent of any parts, closed only once they are) is closed, or gone
 * from Temporal though it was started (its dispatch note goes after the start, so it is read
 * before a second look); unless it was held for a paused subscription (ORDERING_HELD_KEEPS_TURN):
 * then it goes on while its record is held or the run its drain started runs (followed through
 * HOLDS_FOLLOWED holds, a drained run being held again by a later pause). Without `runs`, the
 * attempt log alone tells.
 */
export function deliveryEnds(db: Db, runs: WorkflowRuns | undefined) {
  const attempts = new AttemptRepository(db);
  const notes = new DispatchNotes(db);
  const held = new HeldDeliveryRepository(db);
  // Temporal not answering: not known closed, and the next look asks again.
  const stateOf = (workflowId: string): Promise<RunState> => (runs ? runs(workflowId).catch((): RunState => 'running') : Promise.resolve('running'));
  return async (subscriptionId: string, eventId: string, noteId: string): Promise<boolean> => {
    const workflowId = eventWorkflowId(eventId);
    if (await attempts.endedIn(seriesId(workflowId, subscriptionId), eventId, subscriptionId)) return true;
    if (!runs) return false;
    const run = await stateOf(workflowId);
    if (run === 'running') return false;
    if (run === 'absent' && ((await notes.count(noteId)) > 0 || (await stateOf(workflowId)) === 'running')) return false;
    // Closed (or gone) without a mark: only a hold, or an end the gate never saw, leaves that; read only then.
    return !(await stillHeld(subscriptionId, eventId));
  };

  /** Whether the delivery is held, or goes on in the run a drain started from its record. */
  async function stillHeld(subscriptionId: string, eventId: string): Promise<boolean> {
    let record = firstHeldId(subscriptionId, eventId);
    for (let i = 0; i < HOLDS_FOLLOWED; i++) {
      if (await held.has(record)) return true;
      const drained = heldDeliveryWorkflowId(eventId, record);
      const state = await stateOf(drained);
      if (state !== 'closed') return state === 'running';
      record = heldId(subscriptionId, eventId, drained);
    }
    // Held more often than followed: taken as still held (a real end writes its mark), never as ended.
    return true;
  }
}

/** Holds of one delivery the gate follows (a drained run held again by a later pause holds under a new record). */
const HOLDS_FOLLOWED = 16;
