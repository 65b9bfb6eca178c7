// Minimal workflows with the delivery shapes alone (bench only): no database, HTTP or signing.
// Each "delivery" is a local activity call that only counts it (bench/floor/floor.ts).
import { defineSearchAttributeKey } from '@temporalio/common';
import { ParentClosePolicy, proxyLocalActivities, startChild, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { floorActivities } from './floor';

const { touch } = proxyLocalActivities<typeof floorActivities>({ startToCloseTimeout: '1 minute' });

// The service's state attribute (workflows/search-attributes.ts), defined by name so this file
// stays independent of the service's workflow code.
const stateKey = defineSearchAttributeKey('WebhookDeliveryState', 'KEYWORD');

/**
 * The service's shape (`event`): one workflow per event whose round is one local activity for
 * all M deliveries, one for the round's log write, then one upsert of the final state (the
 * retrying and failed lists stay empty, so only the state changes; workflows/search-attribute-sync.ts).
 */
export async function floorEvent(id: string, subs: number): Promise<void> {
  await touch(Array.from({ length: subs }, (_, i) => `${id}/${i}`));
  await touch([`${id}/log`]);
  upsertSearchAttributes([{ key: stateKey, value: 'delivered' }]);
}

/** The `event-one` shape: as `event`, with the round's deliveries and its log write in one local activity. */
export async function floorEventOne(id: string, subs: number): Promise<void> {
  await touch([...Array.from({ length: subs }, (_, i) => `${id}/${i}`), `${id}/log`]);
  upsertSearchAttributes([{ key: stateKey, value: 'delivered' }]);
}

/** A pre-1.0 delivery child, and the `flat` shape's workflow: one local activity, then its state. */
export async function floorChild(): Promise<void> {
  await touch([workflowInfo().workflowId]);
  upsertSearchAttributes([{ key: stateKey, value: 'delivered' }]);
}

/** The pre-1.0 shape (`children`): a parent reads its targets, starts one child per subscription and closes. */
export async function floorParent(id: string, subs: number): Promise<void> {
  await touch([`${id}/targets`]);
  await Promise.all(
    Array.from({ length: subs }, (_, i) =>
      startChild(floorChild, {
        workflowId: `${id}/${i}`,
        parentClosePolicy: ParentClosePolicy.ABANDON,
        typedSearchAttributes: [{ key: stateKey, value: 'attempting' }],
      }),
    ),
  );
}
