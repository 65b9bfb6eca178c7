// Minimal workflows with the delivery shapes alone (bench only): no database, HTTP or signing.
// Each "delivery" is a call to a local activity that only counts it.
import { ParentClosePolicy, proxyLocalActivities, startChild, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { defineSearchAttributeKey } from '@temporalio/common';
import type * as activities from './activities';

const { touch, touchAll } = proxyLocalActivities<typeof activities>({ startToCloseTimeout: '1 minute' });

// The service's search attributes (workflows/search-attributes.ts), defined here by name so this
// file stays independent of the service's workflow code.
const stateKey = defineSearchAttributeKey('WebhookDeliveryState', 'KEYWORD');
// Start attributes of the pre-1.0 delivery children that are still registered (--attrs 3).
const extraKeys = ['WebhookEventId', 'WebhookEventType'].map((k) => defineSearchAttributeKey(k, 'KEYWORD'));

/** Input of the one-workflow-per-event shapes. */
export interface FloorEventInput {
  id: string;
  subs: number;
  upsert: boolean;
}

const deliveryIds = (input: FloorEventInput) => Array.from({ length: input.subs }, (_, i) => `${input.id}/${i}`);

/**
 * What the service's event workflow upserts once every delivery of its first round succeeded:
 * the state (the starter set `attempting`, and the retrying and failed lists stay empty, so
 * only the state changes; see workflows/search-attribute-sync.ts).
 */
function upsertDelivered(input: FloorEventInput): void {
  if (input.upsert) upsertSearchAttributes([{ key: stateKey, value: 'delivered' }]);
}

/**
 * The service's shape (`--shape event`): one workflow per event whose round is one local
 * activity for all M deliveries, then one local activity for the round's log write, then one
 * upsert of the final state.
 */
export async function floorEvent(input: FloorEventInput): Promise<void> {
  await touchAll(deliveryIds(input));
  await touchAll([`${input.id}/log`]);
  upsertDelivered(input);
}

/**
 * One workflow per event whose M deliveries are M local activities run concurrently
 * (`--shape activities`), then the log write and the upsert as above.
 */
export async function floorEventEach(input: FloorEventInput): Promise<void> {
  await Promise.all(deliveryIds(input).map((id) => touch(id)));
  await touchAll([`${input.id}/log`]);
  upsertDelivered(input);
}

/** A pre-1.0 delivery child: one local activity, then its state as a search attribute. */
export async function floorChild(upsert: boolean): Promise<void> {
  await touch(workflowInfo().workflowId);
  if (upsert) upsertSearchAttributes([{ key: stateKey, value: 'delivered' }]);
}

/** The pre-1.0 shape (`--shape children`): a parent reads its targets, then starts one child per subscription. */
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
