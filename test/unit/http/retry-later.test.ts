import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RetryLater } from '../../../src/errors/retry-later';
import { errorHandler } from '../../../src/http/problem';
import { createLogger } from '../../../src/logger';

describe('a domain RetryLater over HTTP', () => {
  let server: ReturnType<express.Express['listen']>;
  let base: string;
  beforeAll(async () => {
    const app = express();
    app.patch('/api/orders/7', () => {
      throw new RetryLater('Change Not Applied In Time', 'The service was too slow to apply pending → paid to order 7; nothing was written. Retry after 4 s', 4);
    });
    app.use(errorHandler(createLogger('silent', 'test')));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('answers 503 problem+json naming the problem, with Retry-After in seconds', async () => {
    const res = await fetch(`${base}/api/orders/7`, { method: 'PATCH' });
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.headers.get('retry-after')).toBe('4');
    expect(await res.json()).toEqual({
      type: 'https://webhook-service.dev/problems/change-not-applied-in-time',
      title: 'Change Not Applied In Time',
      status: 503,
      detail: 'The service was too slow to apply pending → paid to order 7; nothing was written. Retry after 4 s',
      instance: '/api/orders/7',
    });
  });
});
