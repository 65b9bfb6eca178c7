import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../src/client';
import { startTestApi, type TestApi } from '../../support/api';
import { waitFor } from '../../support/wait';

const run = promisify(execFile);
const v1 = '/api/webhooks/v1';

describe('security: npm run apikey -- --revoke ends a key and the portal sessions it opened', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  /** The CLI as an operator runs it: another process, against the API's database. */
  const revoke = (keyId: string) =>
    run(process.execPath, ['--import', 'tsx', 'src/entry/apikey.ts', '--revoke', keyId], {
      env: { ...process.env, MONGODB_URI: api.config.mongo.connectUri, MONGODB_DB: api.config.mongo.dbName, LOG_LEVEL: 'silent' },
      timeout: 60_000,
    });

  it('revokes from another process: the key gets 401 and its portal session stops within the status cache bound', async () => {
    const { client, key, principal } = await api.clientWith(['webhooks:read', 'webhooks:write'], 'owner-cli');
    const opened = await client.POST(`${v1}/portal-sessions`, {});
    expect(opened.response.status).toBe(201);
    const session = createClient({ baseUrl: api.baseUrl, headers: { Authorization: `Bearer ${opened.data!.token}` } });
    expect((await session.GET(`${v1}/portal-sessions/current`)).response.status).toBe(200);

    const { stdout } = await revoke(principal.keyId);
    expect(stdout).toContain(`API key ${principal.keyId} revoked`);

    const byKey = createClient({ baseUrl: api.baseUrl, apiKey: key });
    await waitFor(async () => (await byKey.GET(`${v1}/subscriptions`, {})).response.status === 401, 20_000);
    await waitFor(async () => (await session.GET(`${v1}/portal-sessions/current`)).response.status === 401, 20_000);
    const write = await session.POST(`${v1}/subscribe`, { body: { url: 'http://127.0.0.1:9/hooks', events: ['webhook.test'] } });
    expect(write.response.status).toBe(401);
    expect(await api.deps.subscriptions.subscriptions.listOwned('owner-cli', 10)).toHaveLength(0);
  });

  it('says so and exits 1 for a key that is not active', async () => {
    const failed = await revoke('key_unknown').then(
      () => undefined,
      (err: { code: number; stdout: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stdout).toContain('No active API key key_unknown');
  });
});
