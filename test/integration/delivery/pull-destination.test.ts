import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookServiceClient } from '../../../src/client';
import { type InboxDoc, InboxRepository, inboxMessageId, type SettlementChange } from '../../../src/deliveries/inbox';
import { verify } from '../../../src/receiver';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { waitFor } from '../../support/wait';

const v1 = '/api/webhooks/v1';
const inboxPath = `${v1}/subscriptions/{subscription_id}/inbox` as const;
const outcomePath = `${v1}/subscriptions/{subscription_id}/inbox/{message_id}/outcome` as const;

describe('pull destinations: an inbox read with a cursor, outcomes reported over the API', () => {
  let api: TestApi;
  let worker: TestWorker;
  let client: WebhookServiceClient;

  beforeAll(async () => {
    api = await startTestApi({ DELIVERY_JITTER: '0' });
    worker = await startTestWorker(api);
    client = (await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read'], `owner-${randomUUID().slice(0, 8)}`)).client;
  });
  afterAll(async () => {
    await worker?.stop();
    await api?.close();
  });

  async function subscribePull(label: string, ackDeadlineSeconds?: number) {
    const destination = { type: 'pull' as const, ...(ackDeadlineSeconds !== undefined ? { ack_deadline_seconds: ackDeadlineSeconds } : {}) };
    const created = await client.POST(`${v1}/subscribe`, {
      body: { url: `pull://${label}`, events: ['order.created'], destination, retry: { schedule: ['1s'], max_attempts: 3 } },
    });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    return created.data!;
  }
  const path = (id: string) => ({ subscription_id: id });
  const attemptsOf = async (id: string) => (await client.GET(`${v1}/subscriptions/{subscription_id}/attempts`, { params: { path: path(id) } })).data!.data;
  /** The next message other than `skip`, long-polling on from `cursor`. */
  async function nextMessage(id: string, cursor?: string, skip?: string) {
    for (;;) {
      const page = await client.GET(inboxPath, { params: { path: path(id), query: { wait: 20, ...(cursor ? { cursor } : {}) } } });
      expect(page.response.status, JSON.stringify(page.error)).toBe(200);
      cursor = page.data!.next_cursor;
      const message = page.data!.data.find((m) => m.id !== skip);
      if (message) return { message, cursor };
    }
  }

  it('puts the signed message in the inbox; a 2xx report is the delivered attempt', async () => {
    const sub = await subscribePull('happy');
    expect(sub.url).toBe('pull://happy');
    // Never set: reads show the default deadline.
    expect(sub.destination).toEqual({ type: 'pull', ack_deadline_seconds: 30 });
    const sent = await client.POST(`${v1}/subscriptions/{subscription_id}/test`, { params: { path: path(sub.id) } });
    expect(sent.response.status).toBe(202);

    const { message, cursor } = await nextMessage(sub.id);
    expect(message.event_id).toBe(sent.data!.event_id);
    expect(message.attempt).toBe(1);
    // The report wakes the workflow running the round, read from the local activity's info.
    const stored = await api.mongo.db.collection<InboxDoc>('inbox').findOne({ _id: message.id });
    expect(stored?.round_workflow_id).toBe(stored?.workflow_id);
    expect(stored?.round_workflow_id).toContain(sent.data!.event_id);
    // The same envelope and signature an HTTP receiver verifies.
    expect(verify<{ id: string }>(message.body, message.headers, sub.secret).id).toBe(sent.data!.event_id);
    // Read on from the cursor: the same page until its outcome is reported (a consumer deduplicates by id).
    const after = await client.GET(inboxPath, { params: { path: path(sub.id), query: { cursor } } });
    expect(after.data!.data.map((m) => m.id)).toEqual([message.id]);
    expect(after.data!.next_cursor).toBe(cursor);

    const reported = await client.POST(outcomePath, { params: { path: { ...path(sub.id), message_id: message.id } }, body: { status_code: 204, response_excerpt: 'thanks', duration_ms: 7 } });
    expect(reported.response.status, JSON.stringify(reported.error)).toBe(204);
    // A retried report of the same answer is accepted; another answer is refused, naming the field.
    const same = await client.POST(outcomePath, { params: { path: { ...path(sub.id), message_id: message.id } }, body: { status_code: 204, response_excerpt: 'thanks', duration_ms: 7 } });
    expect(same.response.status).toBe(204);
    const again = await client.POST(outcomePath, { params: { path: { ...path(sub.id), message_id: message.id } }, body: { status_code: 500 } });
    expect(again.response.status).toBe(409);
    expect(again.error).toMatchObject({ errors: [{ path: '/body/status_code' }] });

    await waitFor(async () => (await attemptsOf(sub.id)).length > 0, 30_000, 250);
    const [attempt] = await attemptsOf(sub.id);
    expect(attempt).toMatchObject({ outcome: 'delivered', status_code: 204, response_excerpt: 'thanks', duration_ms: 7, state: 'delivered' });
    // The timeline names the wait for the consumer's outcome.
    const timeline = await client.GET(`${v1}/subscriptions/{subscription_id}/events/{event_id}/delivery`, { params: { path: { ...path(sub.id), event_id: sent.data!.event_id } } });
    expect(timeline.data!.waits.map((w) => w.reason)).toContain('pull_outcome');
    // Answered: no longer waiting.
    expect((await client.GET(inboxPath, { params: { path: path(sub.id) } })).data!.data).toEqual([]);
  });

  it("retries a consumer's 500 on the subscription's schedule, as for HTTP", async () => {
    const sub = await subscribePull('flaky');
    await client.POST(`${v1}/subscriptions/{subscription_id}/test`, { params: { path: path(sub.id) } });
    const first = await nextMessage(sub.id);
    await client.POST(outcomePath, { params: { path: { ...path(sub.id), message_id: first.message.id } }, body: { status_code: 500, response_excerpt: 'boom' } });
    const second = await nextMessage(sub.id, first.cursor, first.message.id);
    expect(second.message.attempt).toBe(2);
    expect(second.message.event_id).toBe(first.message.event_id);
    await client.POST(outcomePath, { params: { path: { ...path(sub.id), message_id: second.message.id } }, body: { status_code: 200 } });

    await waitFor(async () => (await attemptsOf(sub.id)).length === 2, 30_000, 250);
    const attempts = await attemptsOf(sub.id);
    expect(attempts.map((a) => [a.attempt, a.outcome, a.status_code, a.state])).toEqual([
      [2, 'delivered', 200, 'delivered'],
      [1, 'http_error', 500, 'retrying'],
    ]);
  });

  it("gives the consumer the subscription's ack deadline, then times the attempt out and retries it", async () => {
    const sub = await subscribePull('slow', 5);
    expect(sub.destination).toEqual({ type: 'pull', ack_deadline_seconds: 5 });
    await client.POST(`${v1}/subscriptions/{subscription_id}/test`, { params: { path: path(sub.id) } });
    const first = await nextMessage(sub.id);
    expect(Date.parse(first.message.ack_by) - Date.parse(first.message.created_at)).toBe(5000);
    // Unanswered: a timeout, and the retry is a new message with the same deadline.
    const second = await nextMessage(sub.id, first.cursor, first.message.id);
    expect(second.message.attempt).toBe(2);
    const late = await client.POST(outcomePath, { params: { path: { ...path(sub.id), message_id: first.message.id } }, body: { status_code: 200 } });
    expect(late.response.status).toBe(409);
    await waitFor(async () => (await attemptsOf(sub.id)).length > 0, 30_000, 250);
    expect((await attemptsOf(sub.id)).at(-1)).toMatchObject({ attempt: 1, outcome: 'timeout', duration_ms: 5000, state: 'retrying' });

    const patched = await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { params: { path: path(sub.id) }, body: { destination: { type: 'pull', ack_deadline_seconds: 600 } } });
    expect(patched.response.status, JSON.stringify(patched.error)).toBe(200);
    expect(patched.data!.destination).toEqual({ type: 'pull', ack_deadline_seconds: 600 });
  });

  it.each([4, 601, 30.5])('refuses an ack deadline of %s with a 4xx problem naming it, and writes nothing', async (seconds) => {
    const before = await api.mongo.db.collection('subscriptions').countDocuments();
    const created = await client.POST(`${v1}/subscribe`, { body: { url: 'pull://bounds', events: ['order.created'], destination: { type: 'pull', ack_deadline_seconds: seconds } } });
    expect([400, 422], JSON.stringify(created.error)).toContain(created.response.status);
    expect(created.response.headers.get('content-type')).toContain('application/problem+json');
    expect(created.error!.errors?.map((e) => e.path)).toContain('/body/destination/ack_deadline_seconds');
    expect(await api.mongo.db.collection('subscriptions').countDocuments()).toBe(before);
  });

  it('sends a sample of one of its event types as a test event, and refuses one it does not receive', async () => {
    const sub = await subscribePull('samples');
    const testPath = `${v1}/subscriptions/{subscription_id}/test` as const;
    const sent = await client.POST(testPath, { params: { path: path(sub.id) }, body: { type: 'order.created' } });
    expect(sent.response.status, JSON.stringify(sent.error)).toBe(202);
    const { message } = await nextMessage(sub.id);
    expect(verify<{ id: string; event: string }>(message.body, message.headers, sub.secret)).toMatchObject({ id: sent.data!.event_id, event: 'order.created' });

    const before = await api.mongo.db.collection('events').countDocuments();
    const other = await client.POST(testPath, { params: { path: path(sub.id) }, body: { type: 'stock.low' } });
    expect(other.response.status).toBe(422);
    expect(other.error!.errors?.map((e) => e.path)).toEqual(['/body/type']);
    const unknown = await client.POST(testPath, { params: { path: path(sub.id) }, body: { type: 'order.deleted' as 'order.created' } });
    expect(unknown.response.status).toBe(400);
    expect(await api.mongo.db.collection('events').countDocuments()).toBe(before);
  });

  it('settles a message once when reports race (FerretDB v1 updates are read-then-write)', async () => {
    const sub = await subscribePull('racing');
    await client.POST(`${v1}/subscriptions/{subscription_id}/test`, { params: { path: path(sub.id) } });
    const { message } = await nextMessage(sub.id);
    const codes = [200, 201, 202, 203, 500, 502, 503, 504];
    const answers = await Promise.all(codes.map((status_code) => client.POST(outcomePath, { params: { path: { ...path(sub.id), message_id: message.id } }, body: { status_code } })));
    const won = codes.filter((_, i) => answers[i]!.response.status === 204);
    expect(won).toHaveLength(1);
    expect(answers.filter((a) => a.response.status === 409)).toHaveLength(codes.length - 1);
    await waitFor(async () => (await attemptsOf(sub.id)).length > 0, 30_000, 250);
    expect((await attemptsOf(sub.id))[0]).toMatchObject({ attempt: 1, status_code: won[0] });
  });

  it('lets one of many concurrent settlements of a message win, on FerretDB itself', async () => {
    const inbox = new InboxRepository(api.mongo.db);
    const at = new Date();
    for (let round = 0; round < 10; round++) {
      const id = inboxMessageId(`race-${randomUUID()}`, 'sub_race', 1);
      await inbox.put({ _id: id, subscription_id: 'sub_race', event_id: 'evt_race', attempt: 1, seq: '0', body: '{}', headers: {}, created_at: at, ack_by: at, state: 'waiting' });
      const changes = Array.from({ length: 8 }, (_, i): SettlementChange => (i % 2 ? { state: 'expired' } : { state: 'reported', outcome: { status_code: 200 + i, response_excerpt: '', duration_ms: 0, reported_at: at } }));
      const won = await Promise.all(changes.map((c) => inbox.settle(id, c, at)));
      expect(won.filter(Boolean)).toHaveLength(1);
      expect((await inbox.settlement(id))?.state).toBe(changes[won.indexOf(true)]!.state);
    }
  });

  it('refuses what pull ignores (custom headers, max_in_flight, rate_limit), naming each field', async () => {
    const token = `tok-${randomUUID()}`;
    const created = await client.POST(`${v1}/subscribe`, {
      body: { url: 'pull://ignored', events: ['order.created'], destination: { type: 'pull' }, headers: { 'X-Api-Token': token }, max_in_flight: 2, rate_limit: 5 },
    });
    expect(created.response.status).toBe(422);
    expect((created.error as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual(['/body/headers', '/body/max_in_flight', '/body/rate_limit']);
    const sub = await subscribePull('later');
    const patched = await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { params: { path: path(sub.id) }, body: { rate_limit: 5 } });
    expect(patched.response.status).toBe(422);
  });

  it('fits url and kind together, and has no inbox for other kinds', async () => {
    const mismatched = await client.POST(`${v1}/subscribe`, { body: { url: 'https://example.com/hooks', events: ['order.created'], destination: { type: 'pull' } } });
    expect(mismatched.response.status).toBe(422);
    const http = await client.POST(`${v1}/subscribe`, { body: { url: 'pull://x', events: ['order.created'] } });
    expect(http.response.status).toBe(422);
    const badLabel = await client.POST(`${v1}/subscribe`, { body: { url: 'pull://a/b', events: ['order.created'], destination: { type: 'pull' } } });
    expect(badLabel.response.status).toBe(400);

    const posting = await client.POST(`${v1}/subscribe`, { body: { url: 'https://example.com/hooks', events: ['order.created'] } });
    const inbox = await client.GET(inboxPath, { params: { path: path(posting.data!.id) } });
    expect(inbox.response.status).toBe(409);

    // Another owner's inbox, and its messages, do not exist for this key; nor does an unknown message.
    const pull = await subscribePull('owned');
    const stranger = (await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read'], `owner-${randomUUID().slice(0, 8)}`)).client;
    expect((await stranger.GET(inboxPath, { params: { path: path(pull.id) } })).response.status).toBe(404);
    const messageId = 'pmsg_00000000000000000000000000000000';
    expect((await stranger.POST(outcomePath, { params: { path: { ...path(pull.id), message_id: messageId } }, body: { status_code: 200 } })).response.status).toBe(404);
    expect((await client.POST(outcomePath, { params: { path: { ...path(pull.id), message_id: messageId } }, body: { status_code: 200 } })).response.status).toBe(404);
  });
});
