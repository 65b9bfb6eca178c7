import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../src/client';
import { composeApi, type ApiProcess } from '../../../src/compose/api';
import { loadConfig } from '../../../src/config/config';
import { createLogger } from '../../../src/logger';
import { getFreePort } from '../../../stack/runtime/ports';
import { seedDemoData } from '../../../src/seed/seed';
import { eventWorkflowId } from '../../../workflows/ids';
import { startTestApi, type TestApi } from '../../support/api';
import { sharedApiEnv } from '../../support/api-process';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';

// temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW.
const workflowTaskQueue = 1;

// The real API composition with API_DELIVERY_WORKER on, and no worker process: its own worker delivers.
describe('API_DELIVERY_WORKER: the API delivers the events it starts, eagerly', () => {
  let api: TestApi;
  let proc: ApiProcess;
  let receiver: TestReceiver;
  let base: string;

  beforeAll(async () => {
    api = await startTestApi();
    await seedDemoData(api.mongo.db);
    receiver = await startReceiver((_req, res) => res.writeHead(200).end('ok'));
    const port = await getFreePort();
    const config = loadConfig({
      ...sharedApiEnv(api, port),
      SEED_DEMO_DATA: 'false',
      CALLBACK_ALLOW_PRIVATE: 'true',
      SUBSCRIPTION_CACHE_TTL: '0',
      API_DELIVERY_WORKER: 'true',
    });
    proc = await composeApi(config, createLogger('silent', 'test'));
    await proc.listen();
    base = `http://127.0.0.1:${port}`;
    // A start is eager only once the API's worker runs: wait until it polls (its bundle loads slowly on a busy machine).
    const service = (await api.temporal.client()).workflowService;
    await waitFor(async () => {
      const { pollers } = await service.describeTaskQueue({ namespace: config.temporal.namespace, taskQueue: { name: config.temporal.taskQueue }, taskQueueType: workflowTaskQueue });
      return (pollers ?? []).some((p) => p.identity?.startsWith('api@'));
    }, 120_000, 250);
  }, 180_000);
  afterAll(async () => {
    await proc.stop();
    await receiver.close();
    await api.close();
  });

  it("delivers an order's event, the workflow's first task handed back in the start's reply", async () => {
    const { key } = await api.clientWith(['webhooks:write', 'resources:read', 'webhooks:read', 'orders:write'], 'owner-eager');
    const client = createClient({ baseUrl: base, apiKey: key });
    const sub = await client.POST('/api/webhooks/v1/subscribe', { body: { url: receiver.url, events: ['order.created'] } });
    expect(sub.response.status).toBe(201);
    const order = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
    expect(order.response.status).toBe(201);

    await waitFor(() => receiver.received.length === 1, 20_000);
    const eventId = (await api.deps.resources.orders.outboxOf(order.data!.id)).find((e) => e.type === 'order.created')!.id;
    const history = await (await api.temporal.client()).workflow.getHandle(eventWorkflowId(eventId)).fetchHistory();
    const firstTask = history.events!.find((e) => e.workflowTaskStartedEventAttributes)!.workflowTaskStartedEventAttributes!;
    // Eager: Temporal records the starting client as the task's taker; through matching it is the polling worker (`api@…`).
    expect(firstTask.identity).toBe(`${process.pid}@${hostname()}`);
  });
});
