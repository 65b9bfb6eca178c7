import express from 'express';
import type { AddressInfo } from 'node:net';
import { pinoHttp } from 'pino-http';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logger';
import { isCredentialName, knownSecrets, redactFields, redactUrl } from '../../../src/logger-redaction';

describe('request logs', () => {
  it('never contain the bearer credential (API key or portal session token)', async () => {
    const lines: string[] = [];
    const logger = createLogger('info', 'test', 'json', { write: (line: string) => void lines.push(line) });
    const app = express().use(pinoHttp({ logger })).get('/x', (_req, res) => void res.send('ok'));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const token = 'whps_eyJzaWQiOiJwc18xIn0.c2lnbmF0dXJlLXNpZ25hdHVyZS1zaWduYXR1cmU';
      await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x`, { headers: { Authorization: `Bearer ${token}`, Cookie: 'sid=secret-cookie' } });
      const log = lines.join('');
      expect(log).toContain('"authorization":"[redacted]"');
      expect(log).not.toContain(token);
      expect(log).not.toContain('secret-cookie');
    } finally {
      server.close();
    }
  });

  it("never contain a subscription's outgoing credentials, wherever an auth object is logged", () => {
    const lines: string[] = [];
    const logger = createLogger('info', 'test', 'json', { write: (line: string) => void lines.push(line) });
    const auth = { type: 'oauth2_client_credentials', token_url: 'https://auth.example.com/token', client_id: 'c', client_secret: 'cs_never_logged_1' };
    logger.info({ auth }, 'top level');
    logger.info({ subscription: { id: 'sub_1', auth: { type: 'bearer', token: 'tok_never_logged_2' } } }, 'nested');
    logger.info({ req: { body: { url: 'https://x.example', auth, headers: { 'X-Api-Key': 'hdr_never_logged_3' } } } }, 'request body');
    const log = lines.join('');
    expect(lines).toHaveLength(3);
    for (const secret of ['cs_never_logged_1', 'tok_never_logged_2', 'hdr_never_logged_3']) expect(log).not.toContain(secret);
    expect(log).toContain('"auth":"[redacted]"');
  });

  it('redacts credentials from URLs by parameter name and by value shape, and keeps the rest', () => {
    expect(redactUrl('/x?api_key=abc&limit=5')).toBe('/x?api_key=[redacted]&limit=5');
    expect(redactUrl('/x?access_token=abc&Token=def')).toBe('/x?access_token=[redacted]&Token=[redacted]');
    expect(redactUrl('/x?q=whk_abcDEF123&cursor=c1')).toBe('/x?q=[redacted]&cursor=c1');
    expect(redactUrl('/x?q=whsec_abc%2Bdef%3D')).toBe('/x?q=[redacted]');
    expect(redactUrl('/portal/whps_a.b?x')).toBe('/portal/[redacted]?x');
    expect(redactUrl('/x?whk_abc')).toBe('/x?[redacted]');
    expect(redactUrl('/api/orders/')).toBe('/api/orders/');
  });

  it('redacts credential-named and credential-shaped headers, not the Idempotency-Key', () => {
    for (const name of ['authorization', 'proxy-authorization', 'x-api-key', 'cookie', 'x-auth-token', 'api_key']) expect(isCredentialName(name), name).toBe(true);
    for (const name of ['idempotency-key', 'content-type', 'user-agent', 'limit']) expect(isCredentialName(name), name).toBe(false);
    expect(redactFields({ 'x-api-key': 'k', 'x-note': 'see whps_abc', accept: 'application/json', list: ['a', 'whk_b'] })).toEqual({
      'x-api-key': '[redacted]',
      'x-note': '[redacted]',
      accept: 'application/json',
      list: ['a', '[redacted]'],
    });
  });

  it('redacts configured secrets of no fixed shape by value, raw, percent-encoded or partly encoded', () => {
    const known = knownSecrets(['plain-admin-key-0123456789ab', 'with space/and+plus-0123456789', undefined]);
    expect(redactUrl('/x/plain-admin-key-0123456789ab?limit=5', known)).toBe('/x/[redacted]?limit=5');
    expect(redactUrl('/x/plain%2Dadmin-key-0123456789ab', known)).toBe('/x/[redacted]');
    expect(redactUrl('/x?q=with%20space%2Fand%2Bplus-0123456789&limit=5', known)).toBe('/x?q=[redacted]&limit=5');
    expect(redactUrl('/x?q=with+space%2Fand%2Bplus-0123456789', known)).toBe('/x?q=[redacted]');
    expect(redactUrl('/x?plain-admin-key-0123456789ab', known)).toBe('/x?[redacted]');
    expect(redactFields({ 'x-client': 'plain-admin-key-0123456789ab', accept: 'application/json' }, known)).toEqual({ 'x-client': '[redacted]', accept: 'application/json' });
    expect(redactUrl('/x/plain-admin-key-0123456789ab')).toBe('/x/plain-admin-key-0123456789ab');
  });
});
