import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import express, { Router } from 'express';
import type { OpenApiDocument } from '../../contract/openapi';
import type { EventTypeInfo, SignatureSchemeInfo, WebhookMeta } from '../../contract/types';
import type { OperationHandlers } from '../operations';

const require = createRequire(import.meta.url);
// Redoc's standalone bundle is served from node_modules: the reference page needs no CDN.
const redocBundles = join(dirname(require.resolve('redoc/package.json')), 'bundles');

const docsPage = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Webhook Service API reference</title>
  <style>body { margin: 0; }</style>
</head>
<body>
  <div id="redoc"></div>
  <script src="/docs/assets/redoc.standalone.js"></script>
  <script>
    Redoc.init('/openapi.json', {
      theme: { typography: { fontFamily: 'system-ui, sans-serif', headings: { fontFamily: 'system-ui, sans-serif' } } },
      hideDownloadButton: false,
    }, document.getElementById('redoc'));
  </script>
</body>
</html>
`;

/** Static assets of the reference page; mounted before the validator (they are not API paths). */
export function docsAssets(): Router {
  const r = Router();
  r.use('/docs/assets', express.static(redocBundles, { immutable: true, maxAge: '1d', index: false }));
  return r;
}

/** The contract as JSON, the rendered reference page, the event catalogue and where deliveries come from. */
export function metaHandlers(contract: OpenApiDocument, catalog: EventTypeInfo[], webhookMeta: WebhookMeta, schemes: SignatureSchemeInfo[]): OperationHandlers {
  const json = JSON.stringify(contract);
  return {
    getOpenApiDocument: (_input, _req, res) => {
      res.type('application/json').send(json);
    },
    getDocs: (_input, _req, res) => {
      res.type('text/html').send(docsPage);
    },
    listEventTypes: (_input, _req, res) => {
      res.json({ data: catalog, signature_schemes: schemes });
    },
    // Public like GitHub's /meta: receivers see these addresses anyway and need them before holding a key.
    getWebhookMeta: (_input, _req, res) => {
      res.set('Cache-Control', 'public, max-age=300').json(webhookMeta);
    },
  };
}
