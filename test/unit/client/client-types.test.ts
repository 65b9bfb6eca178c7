import { cannedClient } from '../../support/canned-client';
import { describe, expect, it } from 'vitest';
import type { components } from '../../../src/client';

// The type-level assertions are in client-types.test-d.ts (vitest typecheck); these run.

type SubscriptionWithSecret = components['schemas']['SubscriptionWithSecret'];
type Problem = components['schemas']['Problem'];

const created: SubscriptionWithSecret = {
  id: 'sub_3kTzY8qLm2NvB7xRw9Pd',
  url: 'https://erp.example.com/hooks/orders',
  events: ['order.created'],
  status: 'active',
  version: 1,
  created_at: '2025-06-01T12:00:00.000Z',
  updated_at: '2025-06-01T12:00:00.000Z',
  signature: 'hmac-sha256',
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
};

describe('typed client: subscriptions', () => {
  it('sends the subscribe request and returns its response', async () => {
    const { client, sent } = cannedClient(created, 201);
    const res = await client.POST('/api/webhooks/v1/subscribe', {
      body: { url: 'https://erp.example.com/hooks/orders', events: ['order.created'] },
    });
    expect(res.data).toEqual(created);
    expect(sent[0]!.method).toBe('POST');
    expect(sent[0]!.url).toBe('http://service.test/api/webhooks/v1/subscribe');
    expect(sent[0]!.headers.get('authorization')).toBe('Bearer whk_test');
    expect(await sent[0]!.json()).toEqual({ url: 'https://erp.example.com/hooks/orders', events: ['order.created'] });
  });

  it('surfaces a problem document as the error', async () => {
    const problem: Problem = {
      type: 'https://webhook-service.dev/problems/bad-request',
      title: 'Bad Request',
      status: 400,
      errors: [{ path: '/body/events/0', message: 'must be equal to one of the allowed values' }],
    };
    const { client } = cannedClient(problem, 400, 'application/problem+json');
    const res = await client.POST('/api/webhooks/v1/subscribe', { body: { url: 'https://example.com/', events: ['order.created'] } });
    expect(res.data).toBeUndefined();
    expect(res.error).toEqual(problem);
    expect(res.error?.errors?.[0]?.path).toBe('/body/events/0');
  });

  it('does not validate at runtime: bodies the contract rejects (a type error, see the .test-d.ts) still go out', async () => {
    const { client, sent } = cannedClient(created, 201);
    const id = created.id;
    await client.POST('/api/webhooks/v1/subscribe', { body: { url: 'https://example.com/hooks', events: ['nope'] } as never });
    await client.POST('/api/webhooks/v1/subscribe', { body: { events: ['order.created'] } as never });
    await client.POST('/api/webhooks/v1/subscribe', { body: { url: 42, events: ['order.created'] } as never });
    await client.POST('/api/webhooks/subscribe', { body: { url: 'https://example.com/hooks', events: ['order.deleted'] } as never });
    await client.POST('/api/webhooks/v2/subscribe', { body: { url: 'https://example.com/hooks', events: ['webhook.test'], status: 'paused' } as never });
    await client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: id } }, body: { status: 'disabled' } as never });
    await client.PUT('/api/webhooks/v1/subscriptions/{subscription_id}' as never, { params: { path: { subscription_id: id } } } as never);

    expect(sent.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      'POST /api/webhooks/v1/subscribe',
      'POST /api/webhooks/v1/subscribe',
      'POST /api/webhooks/v1/subscribe',
      'POST /api/webhooks/subscribe',
      'POST /api/webhooks/v2/subscribe',
      `PATCH /api/webhooks/v1/subscriptions/${id}`,
      `PUT /api/webhooks/v1/subscriptions/${id}`,
    ]);
    expect(await sent[0]!.json()).toEqual({ url: 'https://example.com/hooks', events: ['nope'] });
  });
});
