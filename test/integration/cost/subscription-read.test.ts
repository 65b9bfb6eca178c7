import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookServiceClient } from '../../../src/client';
import type { DbCommandCounter } from '../../../src/telemetry/db-commands';
import { createApiMetrics } from '../../../src/telemetry/metrics';
import { counts, moved, total } from '../../support/db-commands';
import { startTestApi, type TestApi } from '../../support/api';

const v1 = '/api/webhooks/v1';

/*
 * Pinned when measured: a GET of one subscription is its one ownership read; a PATCH reads it and
 * writes it conditionally (the API key read is cached after the first request). What it holds
 * (`held`) is counted only while it is paused and holding, or while a resume's drain runs.
 */
const GET_COMMANDS = 1;
const PATCH_COMMANDS = 2;

describe('a subscription read costs no count of held deliveries unless it may hold some', () => {
  let api: TestApi;
  let commands: DbCommandCounter;
  let client: WebhookServiceClient;
  let id: string;

  beforeAll(async () => {
    const metrics = createApiMetrics();
    commands = metrics.dbCommands;
    api = await startTestApi({}, { metrics });
    ({ client } = await api.clientWith(['webhooks:read', 'webhooks:write'], `owner-${randomUUID().slice(0, 8)}`));
    id = (await client.POST(`${v1}/subscribe`, { body: { url: 'http://127.0.0.1:9/hooks', events: ['webhook.test'] } })).data!.id;
  });
  afterAll(async () => {
    await api?.close();
  });

  async function cost<T>(call: () => Promise<T>): Promise<{ res: T; commands: Record<string, number> }> {
    const before = await counts(commands);
    const res = await call();
    // The request budget's lease (a block of points now and then) is the limiter's, not the read's.
    const c = moved(before, await counts(commands));
    delete c['findAndModify rate_limits'];
    return { res, commands: c };
  }
  const get = () => client.GET(`${v1}/subscriptions/{subscription_id}`, { params: { path: { subscription_id: id } } });
  const patch = (body: { status?: 'active' | 'paused'; description?: string }) => client.PATCH(`${v1}/subscriptions/{subscription_id}`, { params: { path: { subscription_id: id } }, body });
  const held = (c: Record<string, number>) => Object.keys(c).filter((k) => k.includes('held_'));

  it('an active subscription: GET and PATCH touch no held delivery', async () => {
    await get();
    const read = await cost(get);
    expect(read.res.data!.held).toBeUndefined();
    expect(held(read.commands), JSON.stringify(read.commands)).toEqual([]);
    expect(total(read.commands), JSON.stringify(read.commands)).toBe(GET_COMMANDS);
    const change = await cost(() => patch({ description: 'renamed' }));
    expect(change.res.response.status).toBe(200);
    expect(held(change.commands), JSON.stringify(change.commands)).toEqual([]);
    expect(total(change.commands), JSON.stringify(change.commands)).toBe(PATCH_COMMANDS);
  });

  it('a paused one counts what it holds, one command; resumed with nothing held, no more', async () => {
    expect((await patch({ status: 'paused' })).data!.held).toMatchObject({ count: 0 });
    const read = await cost(get);
    expect(read.res.data!.held).toMatchObject({ count: 0 });
    expect(total(read.commands), JSON.stringify(read.commands)).toBe(GET_COMMANDS + 1);
    expect(held(read.commands), JSON.stringify(read.commands)).toHaveLength(1);
    expect((await patch({ status: 'active' })).data!.held).toBeUndefined();
    const after = await cost(get);
    expect(held(after.commands), JSON.stringify(after.commands)).toEqual([]);
    expect(total(after.commands)).toBe(GET_COMMANDS);
  });
});
