// Minimal workflows with the delivery shape (bench only): a parent fans out to one child per
// subscriber; each child runs one local activity and records its state as a search attribute.
import { ParentClosePolicy, proxyLocalActivities, startChild, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { defineSearchAttributeKey } from '@temporalio/common';
import type * as activities from './activities';

const { touch } = proxyLocalActivities<typeof activities>({ startToCloseTimeout: '1 minute' });
const stateKey = defineSearchAttributeKey('WebhookDeliveryState', 'KEYWORD');
// Start attributes of the pre-1.0 delivery children that are still registered (--attrs 3).
const extraKeys = ['WebhookEventId', 'WebhookEventType'].map((k) => defineSearchAttributeKey(k, 'KEYWORD'));

export async function floorChild(upsert: boolean): Promise<void> {
  await touch(workflowInfo().workflowId);
  if (upsert) upsertSearchAttributes([{ key: stateKey, value: 'delivered' }]);
}

export async function floorParent(input: { id: string; children: number; awaitResults: boolean; upsert: boolean; attrs?: number }): Promise<void> {
  await touch(`${input.id}/targets`);
  const handles = await Promise.all(
    Array.from({ length: input.children }, (_, i) =>
      startChild(floorChild, {
        workflowId: `${input.id}/${i}`,
        args: [input.upsert],
        parentClosePolicy: ParentClosePolicy.ABANDON,
        typedSearchAttributes: [{ key: stateKey, value: 'attempting' }, ...extraKeys.slice(0, (input.attrs ?? 1) - 1).map((key) => ({ key, value: `${input.id}/${i}` }))],
      }),
    ),
  );
  if (input.awaitResults) await Promise.all(handles.map((h) => h.result()));
}

const { touchAll } = proxyLocalActivities<typeof activities>({ startToCloseTimeout: '1 minute' });

/**
 * The service's 1.0 shape alone: one workflow per event whose round is one local activity for
 * all M deliveries, then one local activity for the round's log write, then one upsert of the
 * final state.
 */
export async function floorEvent(input: { id: string; subs: number; upsert: boolean }): Promise<void> {
  await touchAll(Array.from({ length: input.subs }, (_, i) => `${input.id}/${i}`));
  await touchAll([`${input.id}/log`]);
  if (input.upsert) upsertSearchAttributes([{ key: stateKey, value: 'delivered' }]);
}
