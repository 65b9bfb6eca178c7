import express from 'express';
import type { AddressInfo } from 'node:net';
import { pinoHttp } from 'pino-http';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logger';

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
});
