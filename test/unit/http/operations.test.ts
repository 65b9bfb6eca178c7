import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { components } from '../../../generated/api';
import { loadContract } from '../../../src/contract/openapi';
import type { OrderCreate, SubscriptionCreate } from '../../../src/contract/types';
import { assertEveryOperationServed, contractRoutes, mergeHandlers, type OperationInput, routeOperations } from '../../../src/http/operations';

type Schemas = components['schemas'];
const contract = loadContract();

describe('operation inputs are typed by the generated contract', () => {
  it('path, query and body per operationId', () => {
    expectTypeOf<OperationInput<'getOrder'>['path']>().toEqualTypeOf<{ order_id: number }>();
    expectTypeOf<OperationInput<'listUserOrders'>['query']>().toEqualTypeOf<{ limit?: number; fields?: string }>();
    expectTypeOf<OperationInput<'createOrder'>['body']>().toEqualTypeOf<OrderCreate>();
    expectTypeOf<OperationInput<'createSubscriptionV2'>['body']>().toEqualTypeOf<SubscriptionCreate>();
    // An optional request body may be absent; an operation without one has none.
    expectTypeOf<OperationInput<'rotateSubscriptionSecret'>['body']>().toEqualTypeOf<Schemas['SecretRotation'] | undefined>();
    expectTypeOf<OperationInput<'getOrder'>['body']>().toEqualTypeOf<undefined>();
  });
});

describe('routes come from the contract', () => {
  it('every operation at its method and path, parameters written the Express way', () => {
    const routes = contractRoutes(contract);
    expect(routes.get('getSubscription')).toEqual({ method: 'get', path: '/api/webhooks/v1/subscriptions/:subscription_id' });
    expect(routes.get('createOrder')).toEqual({ method: 'post', path: '/api/orders/' });
    expect(routes.get('adjustStock')).toEqual({ method: 'patch', path: '/api/inventory/stock/:product_id' });
  });

  it('an operationId the contract lacks cannot be routed', () => {
    expect(() => routeOperations(contract, { notAnOperation: () => undefined } as never)).toThrow('the contract has no operation notAnOperation to route');
  });

  it('an operation served twice, or not at all, is refused at start', () => {
    const health = { getHealth: () => undefined };
    expect(() => mergeHandlers(health, health)).toThrow('operation getHealth has two handlers');
    expect(() => assertEveryOperationServed(contract, health)).toThrow(/have no handler/);
    expect(() => assertEveryOperationServed(contract, health)).toThrow(/getReadiness/);
  });
});

// The security handlers allow anything, but the validator still wants the header present.
async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url, { headers: { authorization: 'Bearer any' } });
  expect(res.status).toBe(200);
  return res.json();
}

describe('handlers get what the validator converted', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const allow = () => true;
    const app = express()
      .use(express.json())
      .use(
        OpenApiValidator.middleware({
          apiSpec: structuredClone(contract) as unknown as string,
          validateRequests: true,
          validateSecurity: { handlers: { apiKey: allow, portalSession: allow, metricsToken: allow } },
        }),
      )
      .use(
        routeOperations(contract, {
          listUserOrders: (input, _req, res) => {
            res.json(input);
          },
          listSubscriptions: (input, _req, res) => {
            res.json(input);
          },
        }),
      );
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  it('integers as numbers, strings as strings', async () => {
    const got = await getJson(`${base}/api/users/42/orders?limit=5&fields=id,total`);
    expect(got).toMatchObject({ path: { user_id: 42 }, query: { limit: 5, fields: 'id,total' } });
  });

  it('an id that looks like a number stays a string when the contract says string', async () => {
    const got = (await getJson(`${base}/api/webhooks/v1/subscriptions?cursor=12345`)) as { query: Record<string, unknown> };
    expect(got.query.cursor).toBe('12345');
  });
});
