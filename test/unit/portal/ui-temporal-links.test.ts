import { describe, expect, it } from 'vitest';
import { temporalWorkflowsUrl } from '../../../src/portal/ui/temporal-links';

describe('Temporal UI links of an admin portal session', () => {
  const ui = { url: 'http://localhost:8233/', namespace: 'default' };

  it('filters the workflow list on the event id search attribute', () => {
    expect(temporalWorkflowsUrl(ui, { eventId: 'evt_9fK2mQ7xLp4RtV8wZb3N' })).toBe(
      `http://localhost:8233/namespaces/default/workflows?query=${encodeURIComponent('WebhookEventId="evt_9fK2mQ7xLp4RtV8wZb3N"')}`,
    );
  });

  it('filters on the subscription ids search attribute, and encodes the namespace', () => {
    const url = temporalWorkflowsUrl({ url: 'https://temporal.example.com/ui', namespace: 'prod/eu' }, { subscriptionId: 'sub_3kTzY8qLm2NvB7xRw9Pd' });
    expect(url).toBe('https://temporal.example.com/ui/namespaces/prod%2Feu/workflows?query=WebhookSubscriptionIds%3D%22sub_3kTzY8qLm2NvB7xRw9Pd%22');
    expect(new URL(url).searchParams.get('query')).toBe('WebhookSubscriptionIds="sub_3kTzY8qLm2NvB7xRw9Pd"');
  });
});
