import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../../generated/api';
import { startTestApi, type TestApi } from '../../support/api';

type Problem = components['schemas']['Problem'];

const hook = 'http://127.0.0.1:9/hooks';

describe('security: a supplied signing secret must carry at least 24 key bytes', () => {
  let api: TestApi;
  let key: string;
  beforeAll(async () => {
    api = await startTestApi();
    key = (await api.clientWith(['webhooks:write'])).key;
  });
  afterAll(async () => {
    await api.close();
  });

  async function subscribe(secret: string): Promise<{ status: number; type: string | null; body: Problem }> {
    const res = await fetch(`${api.baseUrl}/api/webhooks/v1/subscribe`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: hook, events: ['webhook.test'], secret }),
    });
    return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as Problem };
  }

  it.each([
    ['padding only (an empty key)', `whsec_${'='.repeat(32)}`],
    ['23 bytes', `whsec_${Buffer.alloc(23, 5).toString('base64')}`],
    ['padding before the end', `whsec_AAAA====${'A'.repeat(28)}`],
  ])('refuses %s with a 422 naming /body/secret, writing nothing', async (_name, secret) => {
    const refused = await subscribe(secret);
    expect(refused.status).toBe(422);
    expect(refused.type).toContain('application/problem+json');
    expect(refused.body.errors?.[0]?.path).toBe('/body/secret');
    expect(refused.body.detail).toContain('secret must');
    expect(await api.mongo.db.collection('subscriptions').countDocuments({})).toBe(0);
  });

  it('accepts 24 bytes', async () => {
    expect((await subscribe(`whsec_${Buffer.alloc(24, 5).toString('base64')}`)).status).toBe(201);
  });
});
