/** Where the Temporal UI is, as `GET /api/webhooks/v1/portal-sessions/current` tells an admin session. */
export interface TemporalUi {
  url: string;
  namespace: string;
}

/** The search attribute and value a workflow list is filtered on. */
export type WorkflowFilter = { eventId: string } | { subscriptionId: string };

/**
 * A link to the Temporal UI's workflow list filtered to one event's delivery workflow
 * (`WebhookEventId`) or to the workflows that delivered to one subscription (`WebhookSubscriptionIds`).
 */
export function temporalWorkflowsUrl(ui: TemporalUi, filter: WorkflowFilter): string {
  const query = 'eventId' in filter ? `WebhookEventId="${filter.eventId}"` : `WebhookSubscriptionIds="${filter.subscriptionId}"`;
  const base = ui.url.replace(/\/+$/, '');
  return `${base}/namespaces/${encodeURIComponent(ui.namespace)}/workflows?query=${encodeURIComponent(query)}`;
}
