import type { Db } from 'mongodb';
import { ApiKeyRepository } from './auth/api-keys';
import type { Config } from './config/config';
import type { AppDeps } from './http/app';
import type { Logger } from './logger';
import { SubscriptionRepository } from './subscriptions/repository';
import { checkCallbackUrl } from './webhooks/callback-url';

/** Composition root of the API: repositories and use-case dependencies over one database. */
export function createAppDeps(input: {
  db: Db;
  temporal: AppDeps['temporal'];
  logger: Logger;
  api: Config['api'];
}): AppDeps {
  const allowPrivate = input.api.allowPrivateCallbacks;
  return {
    db: input.db,
    temporal: input.temporal,
    logger: input.logger,
    apiKeys: new ApiKeyRepository(input.db),
    subscriptions: {
      subscriptions: new SubscriptionRepository(input.db),
      checkUrl: (raw) => checkCallbackUrl(raw, { allowPrivate }),
    },
    validateResponses: input.api.validateResponses,
    bodyLimit: input.api.bodyLimit,
  };
}
