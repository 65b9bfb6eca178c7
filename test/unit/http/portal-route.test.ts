import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/openapi';
import { routeOperations } from '../../../src/http/operations';
import { portalAssets, portalHandlers } from '../../../src/http/routes/portal';

describe('GET /portal', () => {
  const dist = mkdtempSync(join(tmpdir(), 'portal-dist-'));
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = express().use(portalAssets(dist)).use(routeOperations(loadContract(), portalHandlers(dist))).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    rmSync(dist, { recursive: true, force: true });
  });

  it('answers 503 problem+json naming npm run build:portal while the page is not built', async () => {
    const res = await fetch(`${base}/portal`);
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const body = (await res.json()) as { status: number; detail: string };
    expect(body.status).toBe(503);
    expect(body.detail).toContain('npm run build:portal');
  });

  it('serves the built page with a same-origin-only policy, and its assets under /portal/assets', async () => {
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>portal</title>');
    writeFileSync(join(dist, 'assets', 'portal.js'), 'console.log(1)');
    const res = await fetch(`${base}/portal`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const js = await fetch(`${base}/portal/assets/portal.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
  });
});
