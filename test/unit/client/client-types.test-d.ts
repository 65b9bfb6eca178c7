import { describe, expectTypeOf, it } from 'vitest';
import type { components } from '../../../src/client';
import { cannedClient } from '../../support/canned-client';

// Type-level tests, run by vitest's typecheck (and tsc): nothing here is executed.

type SubscriptionWithSecret = components['schemas']['SubscriptionWithSecret'];
type Problem = components['schemas']['Problem'];
type EventType = components['schemas']['EventType'];

const { client } = cannedClient(null);

describe('typed client: subscriptions', () => {
  it('types the subscribe request and its responses from the contract', async () => {
    const res = await client.POST('/api/webhooks/v1/subscribe', {
      body: { url: 'https://erp.example.com/hooks/orders', events: ['order.created'] },
    });
    expectTypeOf(res.data).toEqualTypeOf<SubscriptionWithSecret | undefined>();
    // Problem is open to extension members (an index signature), which openapi-fetch flattens: same type, other spelling.
    expectTypeOf(res.error).toExtend<Problem | undefined>();
    expectTypeOf<Problem | undefined>().toExtend<typeof res.error>();
    expectTypeOf<NonNullable<typeof res.data>['events'][number]>().toEqualTypeOf<EventType>();
  });

  it('types a problem document as the error', async () => {
    const res = await client.POST('/api/webhooks/v1/subscribe', { body: { url: 'https://example.com/', events: ['order.created'] } });
    expectTypeOf(res.error?.errors).toEqualTypeOf<Problem['errors'] | undefined>();
  });

  it('rejects subscribe bodies that do not match the contract', async () => {
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
      params: { path: { subscription_id: 'sub_3kTzY8qLm2NvB7xRw9Pd' } },
      // @ts-expect-error the owner cannot set status disabled
      body: { status: 'disabled' },
    });
    // @ts-expect-error the path has no such operation
    await client.PUT('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: 'sub_3kTzY8qLm2NvB7xRw9Pd' } } });
  });

  it('takes an Idempotency-Key on the operations that keep responses, and only there', async () => {
    const order = { user_id: 1, items: [{ product_id: 1, quantity: 1 }] };
    await client.POST('/api/orders/', { params: { header: { 'Idempotency-Key': 'retry-1' } }, body: order });
    await client.POST('/api/webhooks/v1/events/{event_id}/redeliver', {
      params: { path: { event_id: 'evt_0000000000000000000000' }, header: { 'Idempotency-Key': 'retry-2' } },
      body: {},
    });
    // @ts-expect-error the key is a string
    await client.POST('/api/orders/', { params: { header: { 'Idempotency-Key': 42 } }, body: order });
    await client.PATCH('/api/orders/{order_id}', {
      // @ts-expect-error changing an order takes no Idempotency-Key (a repeated status change is already a no-op)
      params: { path: { order_id: 1 }, header: { 'Idempotency-Key': 'retry-3' } },
      body: { status: 'paid' },
    });
  });
});
