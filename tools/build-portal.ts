/**
 * Builds the subscriber portal (src/portal/ui, Preact + Pico CSS + uPlot) into dist/portal with
 * esbuild: index.html, assets/portal.js and assets/portal.css. Run by `npm test`'s pretest,
 * `npm start`'s prestart and `npm run build:portal`; `--watch` rebuilds on change.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist', 'portal');
const watch = process.argv.includes('--watch');

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <title>Webhooks portal</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/portal/assets/portal.css">
  <script type="module" src="/portal/assets/portal.js"></script>
</head>
<body>
  <div id="app"><main class="container"><p aria-busy="true">Loading the portal…</p></main></div>
</body>
</html>
`;

const options: esbuild.BuildOptions = {
  entryPoints: { portal: join(root, 'src/portal/ui/main.tsx') },
  outdir: join(out, 'assets'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022'],
  minify: !watch,
  sourcemap: true,
  jsx: 'automatic',
  jsxImportSource: 'preact',
  tsconfig: join(root, 'src/portal/ui/tsconfig.json'),
  legalComments: 'linked',
  logLevel: watch ? 'info' : 'warning',
};

const started = Date.now();
// Overwritten in place (fixed names), page last: a server already serving dist/portal never sees it missing.
mkdirSync(out, { recursive: true });
if (watch) {
  writeFileSync(join(out, 'index.html'), page);
  const ctx = await esbuild.context(options);
  await ctx.watch();
  console.log('portal: watching src/portal/ui');
} else {
  await esbuild.build(options);
  writeFileSync(join(out, 'index.html'), page);
  console.log(`portal: built dist/portal in ${Date.now() - started} ms`);
}
