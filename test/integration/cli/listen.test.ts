import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookServiceClient } from '../../../src/client';
import { verify } from '../../../src/receiver';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { startReceiver, type TestReceiver } from '../../support/receiver';
import { waitFor } from '../../support/wait';

const v1 = '/api/webhooks/v1';
const bin = new URL('../../../bin/webhook-service.js', import.meta.url).pathname;
const run = promisify(execFile);

describe('the CLI: listen forwards deliveries to a local receiver and reports its answers', () => {
  let api: TestApi;
  let worker: TestWorker;
  let receiver: TestReceiver;
  let client: WebhookServiceClient;
  let env: NodeJS.ProcessEnv;
  let listener: ChildProcess | undefined;
  const output: string[] = [];

  beforeAll(async () => {
    // The local receiver fails the first delivery of each event, then takes it.
    const seen = new Set<string>();
    receiver = await startReceiver((r, res) => {
      const id = String(r.headers['webhook-id']);
      if (seen.has(id)) return res.writeHead(200).end('taken');
      seen.add(id);
      return res.writeHead(500).end('local failure');
    });
    api = await startTestApi({ DELIVERY_JITTER: '0' });
    worker = await startTestWorker(api);
    const owner = await api.clientWith(['webhooks:write', 'webhooks:read', 'resources:read'], `owner-${randomUUID().slice(0, 8)}`);
    client = owner.client;
    env = { ...process.env, WEBHOOK_SERVICE_URL: api.baseUrl, WEBHOOK_SERVICE_API_KEY: owner.key };
  });
  afterAll(async () => {
    listener?.kill('SIGTERM');
    await receiver?.close();
    await worker?.stop();
    await api?.close();
  });

  it('makes no subscription for trigger, events or attempts (only listen shows its secret)', async () => {
    for (const command of ['trigger', 'events', 'attempts']) {
      const failed = await run(process.execPath, [bin, command, '--label', 'never-listened'], { env }).then(
        () => undefined,
        (err: { code: number; stderr: string }) => err,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toMatch(/run listen first/);
    }
    const subs = (await client.GET(`${v1}/subscriptions`, { params: { query: { limit: 100 } } })).data!.data;
    expect(subs.filter((s) => s.url === 'pull://never-listened')).toEqual([]);
    // A receiver elsewhere needs --allow-remote.
    await expect(run(process.execPath, [bin, 'listen', '--forward-to', 'http://example.com/hooks'], { env })).rejects.toMatchObject({ code: 2 });
  });

  it('delivers through the local port, logs its answer as the attempt, and retries its 500', async () => {
    listener = spawn(process.execPath, [bin, 'listen', '--forward-to', receiver.url, '--events', 'order.created', '--label', 'it'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    listener.stdout!.on('data', (chunk: Buffer) => output.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    await waitFor(() => output.some((l) => l.startsWith('Ready: ')), 60_000, 100);
    const secret = output.find((l) => l.startsWith('Signing secret'))!.split(': ')[1]!;

    const subs = (await client.GET(`${v1}/subscriptions`, { params: { query: { limit: 100 } } })).data!.data;
    const sub = subs.find((s) => s.url === 'pull://it')!;
    expect(sub).toMatchObject({ destination: { type: 'pull' }, events: ['order.created'] });
    // A short schedule, so the retry of the local 500 comes within the test.
    await client.PATCH(`${v1}/subscriptions/{subscription_id}`, { params: { path: { subscription_id: sub.id } }, body: { retry: { schedule: ['1s'], max_attempts: 3 } } });

    const triggered = await run(process.execPath, [bin, 'trigger', '--label', 'it'], { env });
    const eventId = /Sent (evt_\S+)/.exec(triggered.stdout)![1]!;

    await waitFor(async () => (await client.GET(`${v1}/subscriptions/{subscription_id}/attempts`, { params: { path: { subscription_id: sub.id } } })).data!.data.length === 2, 60_000, 250);
    const attempts = (await client.GET(`${v1}/subscriptions/{subscription_id}/attempts`, { params: { path: { subscription_id: sub.id } } })).data!.data;
    expect(attempts.map((a) => [a.event_id, a.attempt, a.outcome, a.status_code, a.response_excerpt, a.state])).toEqual([
      [eventId, 2, 'delivered', 200, 'taken', 'delivered'],
      [eventId, 1, 'http_error', 500, 'local failure', 'retrying'],
    ]);
    // The local port got both, with the original signed headers.
    expect(receiver.received).toHaveLength(2);
    for (const r of receiver.received) expect(verify<{ id: string }>(r.body, r.headers as Record<string, string>, secret).id).toBe(eventId);
    expect(output.filter((l) => l.startsWith(eventId))).toEqual([expect.stringMatching(/webhook\.test attempt 1 -> 500/), expect.stringMatching(/webhook\.test attempt 2 -> 200/)]);

    // The attempt log, as the CLI lists it.
    const listed = await run(process.execPath, [bin, 'attempts', '--label', 'it'], { env });
    expect(listed.stdout).toMatch(new RegExp(`${eventId} attempt 1 http_error 500 -> retrying`));
    expect(listed.stdout).toMatch(new RegExp(`${eventId} attempt 2 delivered 200 -> delivered`));
  });

  it('triggers a sample of one of the subscription\'s event types, and refuses one it does not receive', async () => {
    const triggered = await run(process.execPath, [bin, 'trigger', 'order.created', '--label', 'it'], { env });
    const eventId = /Sent (evt_\S+) \(order\.created\)/.exec(triggered.stdout)![1]!;
    await waitFor(() => output.some((l) => l.startsWith(`${eventId} order.created attempt 2 -> 200`)), 60_000, 250);
    const body = JSON.parse(receiver.received.find((r) => r.headers['webhook-id'] === eventId)!.body) as { event: string; data: { order_id: number } };
    expect(body.event).toBe('order.created');
    expect(body.data.order_id).toBeGreaterThan(0);

    const refused = await run(process.execPath, [bin, 'trigger', 'stock.low', '--label', 'it'], { env }).then(
      () => undefined,
      (err: { code: number; stdout: string }) => err,
    );
    expect(refused?.code).toBe(1);
    expect(refused?.stdout).toMatch(/trigger failed: 422 .*does not receive stock\.low/);
  });

  it('subscribes by default to every event type the key may receive', async () => {
    // Without resources:read, every type but webhook.test is refused (the catalogue's required_scopes).
    const narrow = await api.clientWith(['webhooks:write', 'webhooks:read'], `owner-${randomUUID().slice(0, 8)}`);
    const narrowEnv = { ...env, WEBHOOK_SERVICE_API_KEY: narrow.key };
    const lines: string[] = [];
    const child = spawn(process.execPath, [bin, 'listen', '--forward-to', receiver.url, '--label', 'narrow'], { env: narrowEnv, stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      child.stdout.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
      await waitFor(() => lines.some((l) => l.startsWith('Ready: ')) || child.exitCode !== null, 60_000, 100);
      expect(lines.find((l) => l.startsWith('Ready: '))).toMatch(/\(pull:\/\/narrow\) receives webhook\.test;/);
      const subs = (await narrow.client.GET(`${v1}/subscriptions`, { params: { query: { limit: 100 } } })).data!.data;
      expect(subs.find((s) => s.url === 'pull://narrow')).toMatchObject({ events: ['webhook.test'] });
    } finally {
      child.kill('SIGTERM');
    }
  });
});
