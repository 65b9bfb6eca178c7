import { cannedClient } from '../../support/canned-client';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { components } from '../../../src/client';

type SubscriptionWithSecret = components['schemas']['SubscriptionWithSecret'];
type Problem = components['schemas']['Problem'];
type EventType = components['schemas']['EventType'];

const created: SubscriptionWithSecret = {
  id: 'sub_3kTzY8qLm2NvB7xRw9Pd',
  url: 'https://erp.example.com/hooks/orders',
  events: ['order.created'],
  status: 'active',
  version: 1,
  created_at: '2025-06-01T12:00:00.000Z',
  updated_at: '2025-06-01T12:00:00.000Z',
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
};


describe('typed client: subscriptions', () => {
  it('types the subscribe request and its responses from the contract', async () => {
    const { client, sent } = cannedClient(created, 201);
    const res = await client.POST('/api/webhooks/v1/subscribe', {
      body: { url: 'https://erp.example.com/hooks/orders', events: ['order.created'] },
    });
    expectTypeOf(res.data).toEqualTypeOf<SubscriptionWithSecret | undefined>();
    expectTypeOf(res.error).toEqualTypeOf<Problem | undefined>();
    expectTypeOf<NonNullable<typeof res.data>['events'][number]>().toEqualTypeOf<EventType>();
    expect(res.data).toEqual(created);
    expect(sent[0]!.method).toBe('POST');
    expect(sent[0]!.url).toBe('http://service.test/api/webhooks/v1/subscribe');
    expect(sent[0]!.headers.get('authorization')).toBe('Bearer whk_test');
    expect(await sent[0]!.json()).toEqual({ url: 'https://erp.example.com/hooks/orders', events: ['order.created'] });
  });

  it('surfaces a problem document as a typed error', async () => {
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

  it('rejects subscribe bodies that do not match the contract at compile time', async () => {
    const { client, sent } = cannedClient(created, 201);
    const unknownEvent = { url: 'https://example.com/hooks', events: ['nope'] };
    const missingUrl = { events: ['order.created' as const] };
    const numericUrl = { url: 42, events: ['order.created' as const] };

    // @ts-expect-error 'nope' is not one of the contract's EventType values
    await client.POST('/api/webhooks/v1/subscribe', { body: unknownEvent });
    // @ts-expect-error url is required
    await client.POST('/api/webhooks/v1/subscribe', { body: missingUrl });
    // @ts-expect-error url is a string, not a number
    await client.POST('/api/webhooks/v1/subscribe', { body: numericUrl });
    // @ts-expect-error the same rules hold on the legacy alias
    await client.POST('/api/webhooks/subscribe', { body: { url: 'https://example.com/hooks', events: ['order.deleted'] } });
    // @ts-expect-error status cannot be set on create
    await client.POST('/api/webhooks/v2/subscribe', { body: { url: 'https://example.com/hooks', events: ['webhook.test'], status: 'paused' } });
    await client.PATCH('/api/webhooks/v1/subscriptions/{subscription_id}', {
      params: { path: { subscription_id: created.id } },
      // @ts-expect-error the owner cannot set status disabled
      body: { status: 'disabled' },
    });
    // @ts-expect-error the path has no such operation
    await client.PUT('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: created.id } } });

    // The types, not the runtime, reject them: the calls still went out.
    expect(sent.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      'POST /api/webhooks/v1/subscribe',
      'POST /api/webhooks/v1/subscribe',
      'POST /api/webhooks/v1/subscribe',
      'POST /api/webhooks/subscribe',
      'POST /api/webhooks/v2/subscribe',
      `PATCH /api/webhooks/v1/subscriptions/${created.id}`,
      `PUT /api/webhooks/v1/subscriptions/${created.id}`,
    ]);
  });
});
