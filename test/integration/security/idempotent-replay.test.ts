import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../../support/api';

const subscribe = '/api/webhooks/v1/subscribe';

// A stored response may hold a subscription's signing secret: it is replayed only to a caller that could have made the request.
describe('idempotent replays need the original caller\'s scopes (low: replay scope)', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  const post = (key: string, idempotencyKey: string) =>
    fetch(`${api.baseUrl}${subscribe}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/hook', events: ['order.created'] }),
    });

  it('refuses the replay to a key of the same owner that lacks a scope the original caller had, and serves the original and a wider key', async () => {
    const { key: creator } = await api.clientWith(['webhooks:write', 'resources:read']);
    const { key: narrower } = await api.clientWith(['webhooks:write']);
    const { key: wider } = await api.clientWith(['admin']);
    const idempotencyKey = randomUUID();

    const first = await post(creator, idempotencyKey);
    expect(first.status).toBe(201);
    const { secret } = (await first.json()) as { secret: string };
    expect(secret).toMatch(/^whsec_/);

    const stolen = await post(narrower, idempotencyKey);
    const text = await stolen.text();
    expect(stolen.status, text).toBe(422);
    expect(stolen.headers.get('content-type')).toContain('application/problem+json');
    expect(stolen.headers.get('idempotent-replayed')).toBeNull();
    expect(text).not.toContain(secret);
    expect(JSON.parse(text)).toMatchObject({ title: 'Idempotency Key Reused', errors: [{ path: '/header/Idempotency-Key' }] });

    for (const key of [creator, wider]) {
      const replay = await post(key, idempotencyKey);
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(((await replay.json()) as { secret: string }).secret).toBe(secret);
    }
    expect(await api.mongo.db.collection('subscriptions').countDocuments({})).toBe(1);
  });
});
