import { randomBytes, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createMongo, type Mongo } from '../../../src/db/mongo';
import { type ReceivedEvent, type ReceiverOptions, webhookReceiver } from '../../../src/receiver';
import { signatureHeaders } from '../../../src/webhooks/signature';
import { waitFor } from '../../support/wait';

const secret = `whsec_${randomBytes(24).toString('base64')}`;

/** A receiver app on loopback, recording what its handler processed. */
async function receiverApp(opts: Omit<ReceiverOptions, 'secret' | 'handle'> & { fail?: (n: number) => boolean }) {
  const handled: ReceivedEvent[] = [];
  let calls = 0;
  const app = express();
  app.use(
    '/hooks',
    webhookReceiver({
      ...(opts as ReceiverOptions),
      secret,
      handle: (event) => {
        calls++;
        if (opts.fail?.(calls)) return Promise.reject(new Error('processing failed'));
        handled.push(event);
        return Promise.resolve();
      },
    }),
  );
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return { url, handled, calls: () => calls, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** A delivery as the service signs it, `at` seconds since the epoch (default now). */
function delivery(id = `evt_${randomUUID().replaceAll('-', '').slice(0, 22)}`, at = Math.floor(Date.now() / 1000)) {
  const body = JSON.stringify({ event: 'webhook.test', id, data: { message: 'hi', subscription_id: 'sub_x' } });
  const headers = signatureHeaders({ id, timestamp: at, body, secrets: [secret] }) as unknown as Record<string, string>;
  return { id, body, headers };
}
const post = (url: string, d: { body: string; headers: Record<string, string> }) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...d.headers }, body: d.body });

describe('receiver kit: timestamped signatures and deduplication by default', () => {
  let mongo: Mongo;
  beforeAll(() => {
    mongo = createMongo(inject('mongoUri'), `receiver_${randomUUID().slice(0, 8)}`, 'receiver-kit-test');
  });
  afterAll(async () => {
    await mongo.db.dropDatabase();
    await mongo.close();
  });

  it('processes a delivery once: a repeat of the same event is acknowledged, not reprocessed (MongoDB store)', async () => {
    const r = await receiverApp({ db: mongo.db });
    try {
      const d = delivery();
      const first = await post(r.url, d);
      expect([first.status, await first.json()]).toEqual([200, { received: true }]);
      const again = await post(r.url, { ...d, headers: { ...d.headers, 'webhook-timestamp': d.headers['webhook-timestamp']! } });
      expect([again.status, await again.json()]).toEqual([200, { received: true, duplicate: true }]);
      await waitFor(() => r.handled.length === 1, 5000);
      expect(r.handled.map((e) => e.id)).toEqual([d.id]);
      expect(await mongo.db.collection('received_webhooks').countDocuments({ _id: d.id as never })).toBe(1);
    } finally {
      await r.close();
    }
  });

  it('refuses a captured delivery replayed with its timestamped headers stripped, and one too old', async () => {
    const r = await receiverApp({ db: mongo.db });
    try {
      const d = delivery();
      const stripped = await post(r.url, { body: d.body, headers: { 'X-Signature': d.headers['X-Signature']! } });
      expect(stripped.status).toBe(401);
      expect(((await stripped.json()) as { detail: string }).detail).toBe('missing webhook-id, webhook-timestamp or webhook-signature header');
      const old = delivery(undefined, Math.floor(Date.now() / 1000) - 600);
      const stale = await post(r.url, old);
      expect(stale.status).toBe(401);
      expect(((await stale.json()) as { detail: string }).detail).toBe('webhook-timestamp too old or too new');
      expect(r.calls()).toBe(0);
    } finally {
      await r.close();
    }
  });

  it('releases an event whose processing failed, so the redelivery is processed', async () => {
    const r = await receiverApp({ db: mongo.db, fail: (n) => n === 1 });
    try {
      const d = delivery();
      expect((await post(r.url, d)).status).toBe(200);
      await waitFor(async () => (await mongo.db.collection('received_webhooks').countDocuments({ _id: d.id as never })) === 0, 5000);
      expect((await post(r.url, d)).status).toBe(200);
      await waitFor(() => r.handled.length === 1, 5000);
      expect(r.calls()).toBe(2);
    } finally {
      await r.close();
    }
  });

  it("verifies the seed's X-Signature alone when told to, and processes repeats when told to", async () => {
    const r = await receiverApp({ scheme: 'x-signature', dedupe: false });
    try {
      const d = delivery();
      const xOnly = { body: d.body, headers: { 'X-Signature': d.headers['X-Signature']! } };
      expect((await post(r.url, xOnly)).status).toBe(200);
      expect((await post(r.url, xOnly)).status).toBe(200);
      await waitFor(() => r.handled.length === 2, 5000);
    } finally {
      await r.close();
    }
  });

  it('will not start without a way to recognise repeats, unless told to process them', () => {
    const handle = () => Promise.resolve();
    // @ts-expect-error: neither db, store nor dedupe: false
    expect(() => webhookReceiver({ secret, handle })).toThrow('webhookReceiver needs db (repeats are recognised in MongoDB) or store; dedupe: false processes repeats too');
  });
});
