import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/http/app';
import { createLogger } from '../../../src/logger';
import { startTestApi, type TestApi } from '../../support/api';

const v1 = '/api/webhooks/v1';

// The real app over the real database, its request log written to memory and read back.
describe('credentials sent in the wrong place never reach the request log (finding 6)', () => {
  let api: TestApi;
  let server: Server;
  let base: string;
  let key: string;
  const lines: string[] = [];

  beforeAll(async () => {
    api = await startTestApi();
    key = (await api.clientWith(['webhooks:read'])).key;
    const logger = createLogger('info', 'test', 'json', { write: (line: string) => void lines.push(line) });
    server = createApp({ ...api.deps, logger }).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await api.close();
  });

  it('redacts keys and tokens in query parameters, by name and by shape, and in any header', async () => {
    const portalToken = 'whps_eyJzaWQiOiJwc18xIn0.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
    const secret = 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0';
    const plainToken = 'opaque-token-value-1234';
    const attempts: Array<[string, Record<string, string>]> = [
      [`${v1}/subscriptions?api_key=${key}`, {}],
      [`${v1}/subscriptions?access_token=${plainToken}`, {}],
      [`${v1}/subscriptions?token=${portalToken}`, {}],
      [`${v1}/subscriptions?limit=10&q=${encodeURIComponent(secret)}`, {}],
      [`${v1}/subscriptions`, { 'x-api-key': key }],
      [`${v1}/subscriptions`, { 'proxy-authorization': `Bearer ${plainToken}` }],
      [`${v1}/subscriptions`, { 'x-forwarded-note': `carries ${portalToken}` }],
    ];
    for (const [path, headers] of attempts) {
      const res = await fetch(`${base}${path}`, { headers });
      expect(res.status, path).toBe(401);
    }
    const requestLines = lines.filter((l) => l.includes('"req":'));
    expect(requestLines.length).toBe(attempts.length);
    const log = requestLines.join('');
    for (const credential of [key, portalToken, secret, encodeURIComponent(secret), plainToken]) expect(log).not.toContain(credential);
    expect(log).toContain('api_key=[redacted]');
    expect(log).toContain('"x-api-key":"[redacted]"');
    expect(log).toContain('"proxy-authorization":"[redacted]"');
    // What is not a credential is still logged, for the reader of the line.
    expect(log).toContain('limit=10');
  });
});
