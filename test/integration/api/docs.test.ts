import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/openapi';
import { startTestApi, type TestApi } from '../../support/api';

describe('the contract and its rendered documentation', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it('serves the contract at /openapi.json exactly as the server validates against it', async () => {
    const res = await fetch(`${api.baseUrl}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = (await res.json()) as {
      openapi: string;
      info: { title: string };
      paths: Record<string, unknown>;
      webhooks: Record<string, unknown>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('Webhook Service API');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/webhooks/subscribe', '/api/webhooks/v1/subscribe', '/api/orders/', '/openapi.json', '/docs']) as unknown,
    );
    expect(Object.keys(doc.webhooks)).toEqual(
      expect.arrayContaining(['order.created', 'order.updated', 'webhook.test', 'order.created.v2']) as unknown,
    );
    expect(doc.components.securitySchemes).toHaveProperty('apiKey');
    expect(doc).toEqual(loadContract());
  });

  it('serves an HTML reference page at /docs that loads Redoc from this server only', async () => {
    const res = await fetch(`${api.baseUrl}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain('<script src="/docs/assets/redoc.standalone.js"></script>');
    expect(html).toContain("Redoc.init('/openapi.json'");

    // No CDN: every script, stylesheet, image or font the page names is same-origin.
    const refs = [...html.matchAll(/\b(?:src|href)\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(ref, ref).toMatch(/^\/(?!\/)/);
    expect(html).not.toMatch(/\b(?:src|href)\s*=\s*["']?(?:https?:)?\/\//i);
    expect(html).not.toMatch(/@import\s+url\(\s*["']?https?:/i);
    expect(html).not.toContain('https://');
  });

  it('serves the Redoc bundle the page references, as JavaScript', async () => {
    const res = await fetch(`${api.baseUrl}/docs/assets/redoc.standalone.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^(application|text)\/javascript/);
    const js = await res.text();
    expect(js.length).toBeGreaterThan(100_000);
    expect(js).toContain('Redoc');
  });

  it('answers 404 problem+json for assets that do not exist', async () => {
    const res = await fetch(`${api.baseUrl}/docs/assets/nope.js`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const traversal = await fetch(`${api.baseUrl}/docs/assets/..%2f..%2fpackage.json`);
    expect(traversal.status).toBeGreaterThanOrEqual(400);
    expect(await traversal.text()).not.toContain('"dependencies"');
  });
});
