import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Router } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReceivedEvent, verify, webhookReceiver } from '../../../src/receiver';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { waitFor } from '../../support/wait';

const key = `k1:${randomBytes(32).toString('base64')}`;

/**
 * A real receiver on loopback: the receiver kit's middleware, configured with whatever public
 * keys the test gives it, behind a capture of each request's raw body and headers.
 */
async function kitReceiver() {
  const captured: Array<{ headers: IncomingHttpHeaders; body: string; status?: number }> = [];
  const handled: ReceivedEvent[] = [];
  let kit: Router | undefined;
  const app = express();
  app.use(
    '/hooks',
    // The kit reads the body with express.raw too, and takes it as parsed here.
    express.raw({ type: () => true }),
    (req, res, next) => {
      const entry: (typeof captured)[number] = { headers: req.headers, body: (req.body as Buffer).toString('utf8') };
      captured.push(entry);
      res.on('finish', () => (entry.status = res.statusCode));
      if (kit) kit(req, res, next);
      else res.status(503).end();
    },
  );
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    captured,
    handled,
    trust(keys: string | string[]) {
      kit = webhookReceiver({ secret: keys, dedupe: false, handle: (e) => Promise.resolve(void handled.push(e)) });
    },
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

describe('ed25519 signatures (Standard Webhooks v1a) against the real stack', () => {
  let api: TestApi;
  let worker: TestWorker;
  let receiver: Awaited<ReturnType<typeof kitReceiver>>;

  beforeAll(async () => {
    api = await startTestApi({ SECRET_ENCRYPTION_KEY: key });
    worker = await startTestWorker(api);
    receiver = await kitReceiver();
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
    await api?.close();
  });

  const raw = async (id: string) => JSON.stringify(await api.mongo.db.collection('subscriptions').findOne({ _id: id as never }));

  it('signs with a service-made key pair, verified by the kit with the public key from GET; rotation overlaps both keys', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'webhooks:read']);
    const created = await client.POST('/api/webhooks/v1/subscribe', { body: { url: receiver.url, events: ['webhook.test'], signature: 'ed25519' } });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    const id = created.data!.id;
    const path = { subscription_id: id };
    const got = await client.GET('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path } });
    expect(got.data).toMatchObject({ signature: 'ed25519', public_key: expect.stringMatching(/^whpk_[A-Za-z0-9+/]{43}=$/) as unknown });
    const publicKey = got.data!.public_key!;
    // What the create response hands over to verify with is the public key; the private key never leaves.
    expect(created.data).toMatchObject({ signature: 'ed25519', public_key: publicKey, secret: publicKey });
    const stored = await raw(id);
    expect(stored).toContain('enc:v1:k1:');
    expect(stored).not.toContain('whsk_');

    receiver.trust(publicKey);
    expect((await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/test', { params: { path } })).response.status).toBe(202);
    await waitFor(() => receiver.handled.length === 1, 30_000);
    const first = receiver.captured.find((c) => c.status === 200)!;
    expect(first.headers['x-signature']).toBeUndefined();
    expect(first.headers['x-signature-previous']).toBeUndefined();
    expect(first.headers['webhook-signature']).toMatch(/^v1a,[A-Za-z0-9+/]{86}==$/);
    expect(first.headers['webhook-id']).toBe(receiver.handled[0]!.id);
    expect(receiver.handled[0]).toMatchObject({ event: 'webhook.test', data: { subscription_id: id } });

    // Rotate with an hour of overlap: a receiver still trusting only the old key keeps accepting.
    const rotated = await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/rotate-secret', { params: { path }, body: { expire_previous_in_seconds: 3600 } });
    expect(rotated.response.status).toBe(200);
    expect(rotated.data).toMatchObject({ signature: 'ed25519', secret: expect.stringMatching(/^whpk_/) as unknown });
    const newKey = rotated.data!.secret;
    expect(newKey).not.toBe(publicKey);
    expect((await client.GET('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path } })).data!.public_key).toBe(newKey);
    expect(await raw(id)).not.toContain('whsk_');

    receiver.trust(publicKey);
    expect((await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/test', { params: { path } })).response.status).toBe(202);
    await waitFor(() => receiver.handled.length === 2, 30_000);
    const second = receiver.captured.filter((c) => c.status === 200)[1]!;
    const entries = (second.headers['webhook-signature'] as string).split(' ');
    expect(entries).toHaveLength(2);
    expect(entries.every((e) => /^v1a,[A-Za-z0-9+/]{86}==$/.test(e))).toBe(true);
    // Each key verifies on its own, and the kit accepts either (or both) during the overlap.
    for (const keys of [newKey, publicKey, [newKey, publicKey]]) expect(verify(second.body, second.headers, keys)).toMatchObject({ event: 'webhook.test' });
    // Each entry is that key's: the newest first, each failing under the other key alone.
    const only = (entry: string) => ({ ...second.headers, 'webhook-signature': entry });
    expect(verify(second.body, only(entries[0]!), newKey)).toBeDefined();
    expect(() => verify(second.body, only(entries[0]!), publicKey)).toThrow('no matching signature');
    expect(verify(second.body, only(entries[1]!), publicKey)).toBeDefined();
    expect(() => verify(second.body, only(entries[1]!), newKey)).toThrow('no matching signature');

    // Retiring the old key at once: only the new one signs; the old keys verify nothing.
    await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/rotate-secret', { params: { path }, body: { expire_previous_in_seconds: 0 } });
    const latest = (await client.GET('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path } })).data!.public_key!;
    receiver.trust(latest);
    expect((await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/test', { params: { path } })).response.status).toBe(202);
    await waitFor(() => receiver.handled.length === 3, 30_000);
    const third = receiver.captured.filter((c) => c.status === 200)[2]!;
    expect((third.headers['webhook-signature'] as string).split(' ')).toHaveLength(1);
    expect(() => verify(third.body, third.headers, [publicKey, newKey])).toThrow('no matching signature');
  });

  it('switches an HMAC subscription to ed25519 by rotating: both schemes sign through the overlap', async () => {
    const { client } = await api.clientWith(['webhooks:write', 'webhooks:read']);
    const created = await client.POST('/api/webhooks/v1/subscribe', { body: { url: receiver.url, events: ['webhook.test'] } });
    expect(created.data).toMatchObject({ signature: 'hmac-sha256', secret: expect.stringMatching(/^whsec_/) as unknown });
    expect(created.data).not.toHaveProperty('public_key');
    const path = { subscription_id: created.data!.id };
    const switched = await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/rotate-secret', { params: { path }, body: { signature: 'ed25519' } });
    expect(switched.data).toMatchObject({ signature: 'ed25519', secret: expect.stringMatching(/^whpk_/) as unknown });
    expect((await client.GET('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path } })).data).toMatchObject({ signature: 'ed25519', public_key: switched.data!.secret });

    // A receiver not yet switched (HMAC secret) keeps accepting through the default day of overlap.
    receiver.trust(created.data!.secret);
    const before = receiver.handled.length;
    expect((await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/test', { params: { path } })).response.status).toBe(202);
    await waitFor(() => receiver.handled.length === before + 1, 30_000);
    const delivery = receiver.captured.filter((c) => c.status === 200).at(-1)!;
    expect((delivery.headers['webhook-signature'] as string).split(' ').map((e) => e.split(',')[0])).toEqual(['v1a', 'v1']);
    expect(delivery.headers['x-signature']).toMatch(/^sha256=/);
    expect(verify(delivery.body, delivery.headers, switched.data!.secret)).toMatchObject({ event: 'webhook.test' });

    // And back: HMAC again, the public key gone from reads.
    const back = await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/rotate-secret', { params: { path }, body: { signature: 'hmac-sha256' } });
    expect(back.data).toMatchObject({ signature: 'hmac-sha256', secret: expect.stringMatching(/^whsec_/) as unknown });
    const after = await client.GET('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path } });
    expect(after.data!.signature).toBe('hmac-sha256');
    expect(after.data).not.toHaveProperty('public_key');
  });

  it('refuses a bad scheme, a secret with ed25519, and a scheme on PATCH, naming the field and writing nothing', async () => {
    const { key, principal } = await api.clientWith(['webhooks:write', 'webhooks:read'], `owner-${randomBytes(4).toString('hex')}`);
    const send = async (method: string, path: string, body: unknown) => {
      const res = await fetch(`${api.baseUrl}${path}`, { method, headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as { errors?: Array<{ path: string }> } };
    };
    const count = () => api.mongo.db.collection('subscriptions').countDocuments({ owner_id: principal.ownerId });
    const bad = await send('POST', '/api/webhooks/v1/subscribe', { url: receiver.url, events: ['webhook.test'], signature: 'rsa' });
    expect([bad.status, bad.type]).toEqual([400, expect.stringContaining('application/problem+json')]);
    expect(bad.body.errors?.map((e) => e.path)).toContain('/body/signature');
    const withSecret = await send('POST', '/api/webhooks/v1/subscribe', { url: receiver.url, events: ['webhook.test'], signature: 'ed25519', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' });
    expect([withSecret.status, withSecret.type]).toEqual([422, expect.stringContaining('application/problem+json')]);
    expect(withSecret.body.errors?.map((e) => e.path)).toEqual(['/body/secret']);
    expect(await count()).toBe(0);

    const ok = await send('POST', '/api/webhooks/v1/subscribe', { url: receiver.url, events: ['webhook.test'], signature: 'ed25519' });
    expect(ok.status).toBe(201);
    const id = (ok.body as unknown as { id: string }).id;
    const before = await raw(id);
    const patched = await send('PATCH', `/api/webhooks/v1/subscriptions/${id}`, { signature: 'hmac-sha256' });
    expect(patched.status).toBe(400);
    expect(JSON.stringify(patched.body)).toContain('signature');
    const badRotation = await send('POST', `/api/webhooks/v1/subscriptions/${id}/rotate-secret`, { signature: 'rsa' });
    expect(badRotation.status).toBe(400);
    expect(badRotation.body.errors?.map((e) => e.path)).toContain('/body/signature');
    expect(await raw(id)).toBe(before);
  });

  it('the event catalogue describes both schemes', async () => {
    const { client } = await api.clientWith(['webhooks:read']);
    const res = await client.GET('/api/webhooks/v1/event-types');
    expect(res.data!.signature_schemes.map((s) => [s.name, s.signature_version, s.default])).toEqual([
      ['hmac-sha256', 'v1', true],
      ['ed25519', 'v1a', false],
    ]);
  });
});
