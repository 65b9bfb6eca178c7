import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
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
  // Configured secrets of no fixed shape: the admin key need not start with whk_, and both carry characters a URL encodes.
  const adminKey = 'Adm1n+Key/of-no-shape=2026xyz';
  const metricsToken = 'scrape token 0123456789';
  const spans = new InMemorySpanExporter();

  beforeAll(async () => {
    api = await startTestApi({ ADMIN_API_KEY: adminKey, METRICS_ENABLED: 'true', METRICS_TOKEN: metricsToken });
    key = (await api.clientWith(['webhooks:read'])).key;
    const logger = createLogger('info', 'test', 'json', { write: (line: string) => void lines.push(line) });
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }).getTracer('test');
    server = createApp({ ...api.deps, logger, tracer }).listen(0, '127.0.0.1');
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

  it('redacts the configured admin key and metrics token by value, in a query, an innocently named header and the path, from logs and traces', async () => {
    lines.length = 0;
    spans.reset();
    const attempts: Array<[string, Record<string, string>]> = [
      [`${v1}/subscriptions?q=${encodeURIComponent(adminKey)}`, {}],
      [`${v1}/subscriptions`, { 'x-client': adminKey }],
      [`${v1}/subscriptions/${encodeURIComponent(adminKey)}`, {}],
      [`${v1}/subscriptions?q=${encodeURIComponent(metricsToken)}`, {}],
      [`${v1}/subscriptions`, { 'x-client': metricsToken }],
      [`${v1}/subscriptions/${encodeURIComponent(metricsToken)}`, {}],
    ];
    for (const [path, headers] of attempts) {
      const res = await fetch(`${base}${path}`, { headers });
      expect(res.status, path).toBe(401);
    }
    const requestLines = lines.filter((l) => l.includes('"req":'));
    expect(requestLines.length).toBe(attempts.length);
    const paths = spans.getFinishedSpans().map((s) => String(s.attributes['url.path']));
    expect(paths.length).toBe(attempts.length);
    const seen = requestLines.join('') + paths.join('\n');
    for (const secret of [adminKey, metricsToken]) {
      for (const form of [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]) expect(seen).not.toContain(form);
    }
    expect(seen).toContain('"x-client":"[redacted]"');
    expect(paths).toContain(`${v1}/subscriptions/[redacted]`);
  });
});
