import express, { type Express } from 'express';
import type { Db } from 'mongodb';
import { pinoHttp } from 'pino-http';
import { checkReadiness } from '../health/readiness';
import type { Logger } from '../logger';
import { errorHandler, notFoundHandler } from './problem';

export interface AppDeps {
  db: Db;
  temporal: { ping(timeoutMs?: number): Promise<void> };
  logger: Logger;
}

/** Builds the Express app; entry points and tests inject real or fake dependencies. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(pinoHttp({ logger: deps.logger, autoLogging: { ignore: (req) => req.url === '/healthz' } }));

  // Liveness: the process is up and its event loop turns; no dependency is touched.
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  // Readiness: 503 names the dependency that is down, so orchestrators stop routing here.
  app.get('/readyz', async (_req, res) => {
    const readiness = await checkReadiness(deps);
    res.status(readiness.status === 'ready' ? 200 : 503).json(readiness);
  });

  app.use(notFoundHandler);
  app.use(errorHandler(deps.logger));
  return app;
}
