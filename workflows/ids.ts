// Workflow ids, pure so clients can import them without loading workflow code.

/** Workflow id of an event's fan-out; one per event, so a second start is a no-op. */
export function eventWorkflowId(eventId: string): string {
  return `event/${eventId}`;
}

/** Workflow id of one attempt series: readable in the Temporal UI, unique per event and subscription. */
export function deliveryWorkflowId(eventId: string, subscriptionId: string, series?: string): string {
  return `delivery/${eventId}/${subscriptionId}${series ? `/${series}` : ''}`;
}
