import type { Db } from 'mongodb';
import { AttemptRepository } from '../deliveries/attempts';
import type { RunState, WorkflowRuns } from '../temporal/workflow-runs';
import { eventWorkflowId, seriesId } from '../../workflows/ids';
import { DispatchNotes } from './dispatch-notes';

/**
 * Whether an event's own delivery to a subscription is over, when no ordering mark says so: its
 * workflow ended it without one (terminated, timed out, reset, or run by a worker without the
 * ordering gate). Cheapest first: its own attempt series reached a final state in the attempt
 * log; else its workflow (the parent of any parts, closed only once they are) is closed, or gone
 * from Temporal though it was started (its dispatch note goes after the start, so it is read
 * before a second look). Without `runs`, the attempt log alone tells.
 */
export function deliveryEnds(db: Db, runs: WorkflowRuns | undefined) {
  const attempts = new AttemptRepository(db);
  const notes = new DispatchNotes(db);
  // Temporal not answering: not known closed, and the next look asks again.
  const stateOf = (workflowId: string): Promise<RunState> => (runs ? runs(workflowId).catch((): RunState => 'running') : Promise.resolve('running'));
  return async (subscriptionId: string, eventId: string, noteId: string): Promise<boolean> => {
    const workflowId = eventWorkflowId(eventId);
    if (await attempts.endedIn(seriesId(workflowId, subscriptionId), eventId, subscriptionId)) return true;
    if (!runs) return false;
    const run = await stateOf(workflowId);
    if (run !== 'absent') return run === 'closed';
    if ((await notes.count(noteId)) > 0) return false;
    return (await stateOf(workflowId)) !== 'running';
  };
}
