import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { Router } from 'express';
import { packageRoot } from '../../lib/package-root';
import type { OperationHandlers } from '../operations';
import { problem, sendProblem } from '../problem';

/** Where `tools/build-portal.ts` writes the page and its assets. */
export const portalDist = join(packageRoot, 'dist', 'portal');

// Everything the page loads comes from this server; inline styles only for uPlot's positioning.
const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The portal's assets (`/portal/assets/`): static files, mounted before the validator like the docs assets. */
export function portalAssets(dist = portalDist): Router {
  const r = Router();
  r.use('/portal/assets', express.static(join(dist, 'assets'), { immutable: true, maxAge: '1h', index: false, fallthrough: true }));
  return r;
}

/**
 * The subscriber portal page (`getPortal`), built into `dist/portal` by `npm run build:portal`.
 * When the build is missing the page answers 503 naming the command that makes it.
 */
export function portalHandlers(dist = portalDist): OperationHandlers {
  return {
    getPortal: (_input, _req, res) => {
      const page = join(dist, 'index.html');
      // Checked per request: a build made after the server started is picked up without a restart.
      if (!existsSync(page)) {
        sendProblem(res, problem(503, 'Portal Not Built', 'The portal page has not been built on this server: run `npm run build:portal` (npm start and npm test run it for you).'));
        return;
      }
      res.set({
        'Content-Security-Policy': contentSecurityPolicy,
        'Referrer-Policy': 'no-referrer',
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      });
      res.sendFile(page);
    },
  };
}
