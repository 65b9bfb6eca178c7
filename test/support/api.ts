import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import type { Principal } from '../../src/auth/api-keys';
import type { Scope } from '../../src/auth/scopes';
import { createClient, type WebhookServiceClient } from '../../src/client';
import { loadConfig } from '../../src/config/config';
import { ensureIndexes } from '../../src/db/indexes';
import { createMongo, type Mongo } from '../../src/db/mongo';
import { createApp, type AppDeps } from '../../src/http/app';
import { createLogger } from '../../src/logger';
import { createAppDeps } from '../../src/services';
import { TemporalGateway } from '../../src/temporal/connection';

/** The API running in-process on a free port, over the real test database and Temporal. */
export interface TestApi {
  baseUrl: string;
  deps: AppDeps;
  mongo: Mongo;
  /** A typed client authenticated with a fresh key of `scopes`, owned by `ownerId`. */
  clientWith(scopes: Scope[], ownerId?: string): Promise<{ client: WebhookServiceClient; key: string; principal: Principal }>;
  /** A client with no key at all. */
  anonymous(): WebhookServiceClient;
  close(): Promise<void>;
}

/**
 * Starts the app on a private database (one per test file) with response validation on,
 * so every response in every test is checked against the contract.
 */
export async function startTestApi(env: Record<string, string> = {}): Promise<TestApi> {
  const config = loadConfig({ CALLBACK_ALLOW_PRIVATE: 'true', VALIDATE_RESPONSES: 'true', ...env });
  const mongo = createMongo(inject('mongoUri'), `test_${randomUUID().slice(0, 8)}`, 'api-test');
  await ensureIndexes(mongo.db);
  const temporal = new TemporalGateway(inject('temporalAddress'), 'default');
  const deps = createAppDeps({ db: mongo.db, temporal, logger: createLogger('silent', 'test'), api: config.api });
  const server: Server = createApp(deps).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    deps,
    mongo,
    async clientWith(scopes, ownerId = 'owner-a') {
      const { key, principal } = await deps.apiKeys.create({ ownerId, name: 'test', scopes });
      return { client: createClient({ baseUrl, apiKey: key }), key, principal };
    },
    anonymous: () => createClient({ baseUrl }),
    async close() {
      await new Promise((r) => server.close(r));
      await mongo.db.dropDatabase();
      await Promise.all([mongo.close(), temporal.close()]);
    },
  };
}
