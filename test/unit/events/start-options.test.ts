import { describe, expect, it } from 'vitest';
import { EVENT_WORKFLOW_TASK_TIMEOUT, eventWorkflowStartOptions } from '../../../src/events/start-options';

const settings = { taskQueue: 'webhooks', policy: { scheduleMs: [1000], maxAttempts: 2, jitterRatio: 0 }, batchSize: 50 };

describe('event workflow start options', () => {
  it('gives a workflow task 30 s, as its round of POSTs runs inside it and a timed-out task POSTs again', () => {
    const options = eventWorkflowStartOptions({ eventId: 'evt_1', eventType: 'order.created', subscriptionIds: ['sub_1'] }, settings);
    expect(EVENT_WORKFLOW_TASK_TIMEOUT).toBe('30s');
    expect(options.workflowTaskTimeout).toBe(EVENT_WORKFLOW_TASK_TIMEOUT);
    expect(options.workflowId).toBe('event/evt_1');
  });
});
