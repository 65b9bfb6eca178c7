import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../../../src/seed/seed';
import { eventWorkflowId } from '../../../workflows/ids';
import { startTestApi, type TestApi } from '../../support/api';
import { redeliveryRuns, terminateLeftRunning, waitForWorkflow } from '../../support/event-workflows';

// No worker: the workflows only need to exist, with their memo, to be described.
describe('request ids: one id from the request log to the Temporal UI', () => {
  let api: TestApi;
  let key: string;
  let subscriptionId: string;

  beforeAll(async () => {
    api = await startTestApi();
    await seedDemoData(api.mongo.db);
    const owner = await api.clientWith(['webhooks:write', 'resources:read', 'webhooks:read', 'orders:write']);
    key = owner.key;
    const sub = await owner.client.POST('/api/webhooks/v1/subscribe', { body: { url: 'http://127.0.0.1:9/hooks', events: ['order.created'] } });
    subscriptionId = sub.data!.id;
  });
  afterAll(async () => {
    await terminateLeftRunning(await api.temporal.client(), api.config.temporal.taskQueue);
    await api.close();
  });

  const post = (path: string, body: unknown, requestId?: string) =>
    fetch(`${api.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(requestId ? { 'x-request-id': requestId } : {}) },
      body: JSON.stringify(body),
    });
  const memoOf = async (workflowId: string) => {
    const client = await api.temporal.client();
    // The API answers before it starts an order's workflow.
    await waitForWorkflow(client, workflowId);
    return (await client.workflow.getHandle(workflowId).describe()).memo;
  };

  it("keeps the caller's X-Request-Id: echoed, on the event, in its workflow's memo", async () => {
    const requestId = `req-${randomUUID()}`;
    const res = await post('/api/orders/', { user_id: 1, items: [{ product_id: 1, quantity: 1 }] }, requestId);
    expect(res.status).toBe(201);
    expect(res.headers.get('x-request-id')).toBe(requestId);
    const { id } = (await res.json()) as { id: number };
    const eventId = (await api.deps.resources.orders.outboxOf(id))[0]!.id;
    expect(await api.events.find(eventId)).toMatchObject({ request_id: requestId });
    expect(await memoOf(eventWorkflowId(eventId))).toEqual({ requestId });

    // A redelivery carries the id of the request that asked for it.
    const again = `req-${randomUUID()}`;
    expect((await post(`/api/webhooks/v1/events/${eventId}/redeliver`, {}, again)).status).toBe(202);
    const [redelivery] = await redeliveryRuns(await api.temporal.client(), eventId);
    expect(await memoOf(redelivery!)).toEqual({ requestId: again });
  });

  it('gives a request without a usable id a new UUID, and the event gets that one', async () => {
    const res = await post(`/api/webhooks/v1/subscriptions/${subscriptionId}/test`, {}, 'not a token {"forged": true}');
    expect(res.status).toBe(202);
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const { event_id: eventId } = (await res.json()) as { event_id: string };
    expect(await api.events.find(eventId)).toMatchObject({ request_id: requestId });
    expect(await memoOf(eventWorkflowId(eventId))).toEqual({ requestId });
  });
});
