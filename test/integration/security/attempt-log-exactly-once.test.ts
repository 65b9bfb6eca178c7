import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookServiceClient } from '../../../src/client';
import { storableText } from '../../../src/db/storable-text';
import type { AttemptDoc } from '../../../src/deliveries/attempts';
import { newOutboxEvent } from '../../../src/events/outbox';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { eventOutcome, terminateLeftRunning } from '../../support/event-workflows';
import { eventWorkflowId } from '../../../workflows/ids';

/** One scripted answer: status, body bytes, and how long the receiver waits before it. */
interface Answer {
  status: number;
  body: Buffer;
  delayMs: number;
}

/** DELIVERY_TIMEOUT here: an answer held longer is a timeout. */
const TIMEOUT_MS = 1000;
/** The bytes of an answer the attempt log keeps (postWebhook's default cap). */
const EXCERPT_BYTES = 1024;

/** Bodies that have broken storage or decoding: NUL, invalid UTF-8, lone surrogates, a character split at the cap. */
const nasty = fc.constantFrom(
  Buffer.from('ok\u0000ok'),
  Buffer.from([0]),
  Buffer.from([0xff, 0xfe, 0x00, 0xc3]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from('"\\ud800"'),
  Buffer.concat([Buffer.alloc(EXCERPT_BYTES - 1, 'a'), Buffer.from('\u20ac')]),
);
const body: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 3, arbitrary: fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)) },
  { weight: 2, arbitrary: nasty },
  { weight: 1, arbitrary: fc.constant(Buffer.alloc(0)) },
  // Huge: far past the cap, read up to it and cut.
  { weight: 1, arbitrary: fc.record({ size: fc.integer({ min: EXCERPT_BYTES, max: 1_000_000 }), fill: fc.integer({ min: 0, max: 255 }) }).map(({ size, fill }) => Buffer.alloc(size, fill)) },
);
const answer: fc.Arbitrary<Answer> = fc.record({
  status: fc.constantFrom(200, 202, 299, 400, 404, 410, 429, 500, 503),
  body,
  delayMs: fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 0, max: 150 }) }, { weight: 1, arbitrary: fc.constant(TIMEOUT_MS + 500) }),
});
/** A round's subscriptions, each with the answers to its (at most two) attempts. */
const scenario = fc.array(fc.tuple(answer, answer), { minLength: 1, maxLength: 4 });

describe('the attempt log under arbitrary receiver answers (property)', () => {
  let api: TestApi;
  let worker: TestWorker;
  let client: WebhookServiceClient;
  let server: Server;
  let base = '';
  /** Per receiver path: its scripted answers and the requests it got. */
  const scripts = new Map<string, { answers: readonly Answer[]; got: number }>();

  beforeAll(async () => {
    api = await startTestApi({ DELIVERY_TIMEOUT: `${TIMEOUT_MS / 1000}s`, DELIVERY_JITTER: '0' });
    worker = await startTestWorker(api);
    ({ client } = await api.clientWith(['webhooks:write', 'resources:read', 'webhooks:read'], 'owner-property'));
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const script = scripts.get(req.url ?? '');
        const a = script?.answers[Math.min(script.got, script.answers.length - 1)];
        if (script) script.got++;
        const reply = () => {
          if (res.destroyed) return;
          res.writeHead(a?.status ?? 404).end(a?.body ?? Buffer.alloc(0));
        };
        setTimeout(reply, a?.delayMs ?? 0);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    if (!api) return;
    expect(await terminateLeftRunning(await api.temporal.client(), api.config.temporal.taskQueue)).toEqual([]);
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    await worker?.stop();
    await api.close();
  });

  /** What the log keeps of an answer the worker read in full or up to the cap. */
  const excerptOf = (a: Answer) => storableText(a.body.subarray(0, EXCERPT_BYTES).toString('utf8'));

  it('logs every attempt made exactly once, as the receiver answered it', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (subs) => {
        const run = randomUUID().slice(0, 8);
        const ids: string[] = [];
        for (const [n, answers] of subs.entries()) {
          const path = `/p/${run}/${n}`;
          scripts.set(path, { answers, got: 0 });
          // Two attempts at most, a second apart: a run stays within a few seconds.
          const sub = await client.POST('/api/webhooks/v1/subscribe', { body: { url: `${base}${path}`, events: ['order.updated'], retry: { schedule: ['1s'], max_attempts: 2 } } });
          expect(sub.response.status).toBe(201);
          ids.push(sub.data!.id);
        }
        const event = await api.dispatcher.emit(newOutboxEvent('order.updated', { order_id: 1, total: 1, status: 'paid', previous_status: 'pending', user_id: 1, currency: 'EUR' }), {
          ownerId: 'owner-property',
          subscriptionIds: ids,
        });
        await eventOutcome(await api.temporal.client(), eventWorkflowId(event._id));

        for (const [n, answers] of subs.entries()) {
          const got = scripts.get(`/p/${run}/${n}`)!.got;
          const logged = await api.mongo.db.collection<AttemptDoc>('attempts').find({ event_id: event._id, subscription_id: ids[n]! }).toArray();
          // One record per attempt the receiver got: none lost, none twice.
          expect(logged.map((a) => a.attempt).sort()).toEqual(Array.from({ length: got }, (_, i) => i + 1));
          expect(got).toBeGreaterThanOrEqual(1);
          for (const a of logged) {
            const sent = answers[a.attempt - 1]!;
            if (a.outcome === 'timeout') continue;
            expect(a.status_code).toBe(sent.status);
            expect(a.response_excerpt).toBe(excerptOf(sent));
          }
        }
        for (const n of subs.keys()) scripts.delete(`/p/${run}/${n}`);
      }),
      { numRuns: 20, endOnFailure: true, interruptAfterTimeLimit: 100_000, markInterruptAsFailure: true },
    );
  }, 180_000);
});
