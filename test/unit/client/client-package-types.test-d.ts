import { describe, expectTypeOf, it } from 'vitest';
import type { components, Envelope, EnvelopeV1, EnvelopeV2, paths, WebhookPayload, webhooks } from '../../../clients/typescript/src';
import { verify } from '../../../clients/typescript/src/receiver';

// Type-level tests of the client package's payload types, run by vitest's typecheck (and tsc).

type Schemas = components['schemas'];

describe('client package: webhook payload types', () => {
  it('types custom headers: any name → value on create, values only ever masked on read', () => {
    expectTypeOf<Schemas['SubscriptionCreate']['headers']>().toEqualTypeOf<{ [key: string]: string } | undefined>();
    expectTypeOf<Schemas['SubscriptionUpdate']['headers']>().toEqualTypeOf<{ [key: string]: string } | undefined>();
    expectTypeOf<Schemas['Subscription']['headers']>().toEqualTypeOf<{ [key: string]: '********' } | undefined>();
  });

  it('types auth: one of three by type on create, null removes it on PATCH, no secret on read', () => {
    type Auth = NonNullable<Schemas['SubscriptionCreate']['auth']>;
    expectTypeOf<Extract<Auth, { type: 'bearer' }>>().toEqualTypeOf<{ type: 'bearer'; token: string }>();
    expectTypeOf<Extract<Auth, { type: 'basic' }>>().toEqualTypeOf<{ type: 'basic'; username: string; password: string }>();
    expectTypeOf<Extract<Auth, { type: 'oauth2_client_credentials' }>['client_secret']>().toEqualTypeOf<string>();
    expectTypeOf<Schemas['SubscriptionUpdate']['auth']>().toEqualTypeOf<Auth | null | undefined>();
    type View = NonNullable<Schemas['Subscription']['auth']>;
    expectTypeOf<keyof View>().toEqualTypeOf<'type' | 'token_url' | 'client_id' | 'scope'>();
    expectTypeOf<Schemas['SubscriptionWithSecret']['auth']>().toEqualTypeOf<Schemas['Subscription']['auth']>();
  });

  it("names each webhook's body by its name in the contract's webhooks section", () => {
    expectTypeOf<WebhookPayload<'order.created'>>().toEqualTypeOf<Schemas['OrderCreatedEventV1']>();
    expectTypeOf<WebhookPayload<'order.updated.v2'>>().toEqualTypeOf<Schemas['OrderUpdatedEventV2']>();
    expectTypeOf<WebhookPayload<'admin.alert'>>().toEqualTypeOf<Schemas['AlertNotification']>();
    expectTypeOf<WebhookPayload<'subscription.disabled'>>().toEqualTypeOf<Schemas['SubscriptionDisabledNotification']>();
    // @ts-expect-error no such webhook in the contract
    expectTypeOf<WebhookPayload<'order.deleted'>>().toBeNever();
  });

  it('has one envelope type per subscription version, each the union of that version’s webhooks', () => {
    expectTypeOf<EnvelopeV1>().toEqualTypeOf<WebhookPayload<'order.created' | 'order.updated' | 'webhook.test' | 'stock.updated' | 'stock.low'>>();
    expectTypeOf<EnvelopeV2>().toEqualTypeOf<
      WebhookPayload<'order.created.v2' | 'order.updated.v2' | 'webhook.test.v2' | 'stock.updated.v2' | 'stock.low.v2'>
    >();
    expectTypeOf<Envelope>().toEqualTypeOf<EnvelopeV1 | EnvelopeV2>();
    expectTypeOf<keyof webhooks>().toEqualTypeOf<
      | 'order.created'
      | 'order.updated'
      | 'webhook.test'
      | 'stock.updated'
      | 'stock.low'
      | 'order.created.v2'
      | 'order.updated.v2'
      | 'webhook.test.v2'
      | 'stock.updated.v2'
      | 'stock.low.v2'
      | 'admin.alert'
      | 'subscription.disabled'
      | 'version.deprecated_in_use'
    >();
  });

  it('lets verify return the payload type asked for', () => {
    expectTypeOf(verify<EnvelopeV2>('{}', {}, 'whsec_x')).toEqualTypeOf<EnvelopeV2>();
  });
});

describe('client package: subscription filter and version', () => {
  it('carries the filter on create, update and read, and version on update', () => {
    expectTypeOf<Schemas['SubscriptionCreate']['filter']>().toEqualTypeOf<Schemas['SubscriptionFilter'] | undefined>();
    expectTypeOf<Schemas['SubscriptionUpdate']['filter']>().toEqualTypeOf<Schemas['SubscriptionFilter'] | undefined>();
    expectTypeOf<Schemas['Subscription']['filter']>().toEqualTypeOf<Schemas['SubscriptionFilter'] | undefined>();
    expectTypeOf<Schemas['SubscriptionUpdate']['version']>().toEqualTypeOf<1 | 2 | undefined>();
  });
});

describe('client package: retry schedule', () => {
  it('takes retry on create, retry or null on update, and reads the effective schedule with its source', () => {
    expectTypeOf<Schemas['SubscriptionCreate']['retry']>().toEqualTypeOf<Schemas['SubscriptionRetry'] | undefined>();
    expectTypeOf<Schemas['SubscriptionUpdate']['retry']>().toEqualTypeOf<Schemas['SubscriptionRetry'] | null | undefined>();
    expectTypeOf<Schemas['SubscriptionRetry']>().toEqualTypeOf<{ schedule: string[]; max_attempts: number }>();
    expectTypeOf<Schemas['Subscription']['retry']>().toEqualTypeOf<Schemas['EffectiveRetry']>();
    expectTypeOf<Schemas['EffectiveRetry']['source']>().toEqualTypeOf<'service' | 'subscription'>();
  });
});

describe('client package: rate limit', () => {
  it('takes rate_limit on create, a number or null on update, and reads it when set', () => {
    expectTypeOf<Schemas['SubscriptionCreate']['rate_limit']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Schemas['SubscriptionUpdate']['rate_limit']>().toEqualTypeOf<number | null | undefined>();
    expectTypeOf<Schemas['Subscription']['rate_limit']>().toEqualTypeOf<number | undefined>();
  });
});

describe('client package: delivery timeline', () => {
  it('reads one delivery as attempts, waits with their reasons, and what happens next', () => {
    type Timeline = paths['/api/webhooks/v1/subscriptions/{subscription_id}/events/{event_id}/delivery']['get']['responses'][200]['content']['application/json'];
    expectTypeOf<Timeline>().toEqualTypeOf<Schemas['DeliveryTimeline']>();
    expectTypeOf<Schemas['DeliveryTimeline']['attempts']>().toEqualTypeOf<Schemas['DeliveryAttempt'][]>();
    expectTypeOf<Schemas['DeliveryWait']['reason']>().toEqualTypeOf<'backoff' | 'retry_after' | 'rate_limit' | 'max_in_flight' | 'pull_outcome'>();
    expectTypeOf<NonNullable<Schemas['DeliveryNext']['waiting']>['reason']>().toEqualTypeOf<'ordering'>();
    expectTypeOf<Schemas['DeliveryNext']['state']>().toEqualTypeOf<'pending' | 'retrying' | 'delivered' | 'failed' | 'stopped' | 'cancelled'>();
  });
});

describe('client package: subscription health', () => {
  it('asks for a page of subscriptions as one comma-separated query and reads each one’s last-hour rate', () => {
    type Query = paths['/api/webhooks/v1/subscription-health']['get']['parameters']['query'];
    expectTypeOf<Query>().toEqualTypeOf<{ subscription_ids: string }>();
    expectTypeOf<Schemas['SubscriptionHealth']['success_rate']>().toEqualTypeOf<number | undefined>();
  });
});
