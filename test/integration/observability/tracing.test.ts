import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../../../src/seed/seed';
import { startTracing, type Tracing } from '../../../src/telemetry/tracing';
import { eventWorkflowId } from '../../../workflows/ids';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { eventOutcome } from '../../support/event-workflows';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';

// The API and the worker run in this process, so one in-memory exporter sees every span.
describe('tracing: one trace from POST /api/orders/ to the receiver', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  let api: TestApi;
  let worker: TestWorker;
  let receiver: TestReceiver;

  beforeAll(async () => {
    tracing = startTracing('webhook-service', 'test', new SimpleSpanProcessor(exporter));
    api = await startTestApi({}, { tracing });
    await seedDemoData(api.mongo.db);
    worker = await startTestWorker(api, {}, tracing);
    receiver = await startReceiver((_req, res) => res.writeHead(200).end());
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
    await api?.close();
    await tracing?.shutdown();
  });

  const spanId = (s: ReadableSpan) => s.spanContext().spanId;
  /** The span's ancestors, nearest first, by name. */
  function ancestry(span: ReadableSpan, all: ReadableSpan[]): string[] {
    const names: string[] = [];
    for (let parent = span.parentSpanId; parent; ) {
      const p = all.find((s) => spanId(s) === parent);
      if (!p) {
        names.push(`<missing ${parent}>`);
        break;
      }
      names.push(p.name);
      parent = p.parentSpanId;
    }
    return names;
  }

  it('spans the request, its database writes, the workflow start, the workflow, the attempt activity and the POST, whose traceparent the receiver gets', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'resources:read', 'webhooks:read', 'orders:write']);
    const sub = await client.POST('/api/webhooks/v1/subscribe', { body: { url: receiver.url, events: ['order.created'] } });
    expect(sub.response.status).toBe(201);
    exporter.reset();

    const order = await client.POST('/api/orders/', { body: { user_id: 1, items: [{ product_id: 1, quantity: 1 }] } });
    expect(order.response.status).toBe(201);
    const eventId = (await api.deps.resources.orders.outboxOf(order.data!.id))[0]!.id;
    expect(await eventOutcome(await api.temporal.client(), eventWorkflowId(eventId))).toMatchObject({ state: 'delivered' });
    expect(receiver.received).toHaveLength(1);

    const server = exporter.getFinishedSpans().find((s) => s.name === 'POST /api/orders/');
    expect(server?.kind).toBe(SpanKind.SERVER);
    const traceId = server!.spanContext().traceId;
    const inTrace = () => exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
    // Workflow spans reach the exporter through the worker's sink as their tasks complete.
    await waitFor(() => inTrace().some((s) => s.name === 'RunActivity:deliverRound') && inTrace().some((s) => s.name === 'RunWorkflow:eventWorkflow'), 15_000);
    const spans = inTrace();

    const post = spans.find((s) => s.name === 'POST' && s.kind === SpanKind.CLIENT);
    expect(post?.attributes).toMatchObject({ 'http.response.status_code': 200, 'webhook.outcome': 'delivered', 'server.address': '127.0.0.1' });
    expect(ancestry(post!, spans)).toEqual([
      'RunActivity:deliverRound',
      'StartActivity:deliverRound',
      'RunWorkflow:eventWorkflow',
      'StartWorkflow:eventWorkflow',
      'POST /api/orders/',
    ]);
    // The receiver's traceparent names the POST's span: its own tracing continues this trace.
    expect(receiver.received[0]!.headers.traceparent).toBe(`00-${traceId}-${spanId(post!)}-01`);

    // The request's database writes (the order, its dispatch note, the event log) are its children.
    const requestDb = spans.filter((s) => s.parentSpanId === spanId(server!) && s.name.startsWith('mongodb.')).map((s) => s.name);
    expect(requestDb).toEqual(expect.arrayContaining(['mongodb.insert orders', 'mongodb.insert dispatch_notes', 'mongodb.insert events']));
    // The attempt log is written by the round's activity, after its POSTs, in the same trace.
    const record = spans.find((s) => s.name === 'RunActivity:deliverRound')!;
    expect(spans.some((s) => s.parentSpanId === spanId(record) && s.name === 'mongodb.insert attempts')).toBe(true);
    expect(ancestry(record, spans).at(-1)).toBe('POST /api/orders/');
  });
});
