// Workflow ids, pure so clients can import them without loading workflow code.

/** Workflow id of an event's delivery; one per event, so a second start is a no-op. */
export function eventWorkflowId(eventId: string): string {
  return `event/${eventId}`;
}

/** Workflow id of a redelivery or recovery request's delivery of one event: a new attempt series. */
export function redeliveryWorkflowId(eventId: string, redeliveryId: string): string {
  return `event/${eventId}/redelivery/${redeliveryId}`;
}

/** Whether `origin` (a run's top workflow id) is the event's own delivery rather than a redelivery of it. */
export function isOwnDelivery(origin: string, eventId: string): boolean {
  return origin === eventWorkflowId(eventId);
}

/** Workflow id of part `index` (from 1) of a large fan-out started by workflow `parentId`. */
export function partWorkflowId(parentId: string, index: number): string {
  return `${parentId}/part/${index}`;
}

/**
 * The attempt series of one subscription within a delivery run (`origin` is the id of the run's
 * top workflow): attempt log entries are keyed by it, so a redelivery logs a fresh series.
 */
export function seriesId(origin: string, subscriptionId: string): string {
  return `${origin}#${subscriptionId}`;
}

/** Workflow id of the drain of `subscriptionId`'s held deliveries: one at a time per subscription. */
export function drainWorkflowId(subscriptionId: string): string {
  return `drain/${subscriptionId}`;
}

/** Workflow id of the delivery a drain starts for held record `heldId`: fixed, so a repeated start is a no-op. */
export function heldDeliveryWorkflowId(eventId: string, heldId: string): string {
  return redeliveryWorkflowId(eventId, heldId);
}
