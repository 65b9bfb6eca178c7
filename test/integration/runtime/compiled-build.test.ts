import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { getFreePort } from '../../../stack/runtime/ports';
import type { diagnosticsWorkflow } from '../../../workflows';
import { composeBuiltCommands, dockerCmd, dockerfileStages } from '../../support/dockerfile';
import { tempDir } from '../../support/servers';
import { waitFor } from '../../support/wait';
import { workerEntryProcess } from '../../support/worker-process';

// `npm run build` for real, into a directory laid out like the image's /app (package.json,
// production node_modules, openapi/, dist/): the API and the worker run there as plain node,
// the worker on the prebuilt workflow bundle.

const root = fileURLToPath(new URL('../../../', import.meta.url));
let app: string;

beforeAll(async () => {
  app = tempDir('build');
  copyFileSync(join(root, 'package.json'), join(app, 'package.json'));
  symlinkSync(join(root, 'node_modules'), join(app, 'node_modules'));
  symlinkSync(join(root, 'openapi'), join(app, 'openapi'));
  mkdirSync(join(app, 'dist'));
  const started = Date.now();
  await promisify(execFile)(process.execPath, ['--import', 'tsx', 'tools/build.ts', '--out-dir', join(app, 'dist')], { cwd: root, timeout: 240_000 });
  console.log(`npm run build (compile and workflow bundles) took ${Date.now() - started}ms`);
}, 250_000);

afterAll(() => {
  if (app) rmSync(app, { recursive: true, force: true });
});

const env = () => ({ MONGODB_URI: inject('mongoUri'), MONGODB_DB: 'compiled_build', TEMPORAL_ADDRESS: inject('temporalAddress'), LOG_FORMAT: 'json', LOG_LEVEL: 'info' });

describe('the compiled build', () => {
  it('writes JavaScript only, both workflow bundles, and the files the Dockerfile and docker-compose.yml run', () => {
    const files = readdirSync(join(app, 'dist'), { recursive: true }).map(String);
    expect(files.filter((f) => f.endsWith('.ts'))).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(['workflow-bundle.js', 'workflow-bundle.traced.js', 'src/entry/api.js', 'src/entry/worker.js']));
    // The development stack stays out of the image: no launcher, embedded server or their entry points.
    expect(files.filter((f) => /^(stack|bench|test|tools)(\/|$)|^src\/runtime(\/|$)|^src\/entry\/(start|servers|cluster)\.js$/.test(f))).toEqual([]);
    const commands = [dockerCmd(dockerfileStages()), ...Object.values(composeBuiltCommands())];
    for (const [node, file] of commands) {
      expect(node).toBe('node');
      expect(existsSync(join(app, file!)), file).toBe(true);
    }
  });

  it('the worker runs as plain node on the prebuilt workflow bundle and runs a workflow', async () => {
    const taskQueue = `compiled-${randomUUID()}`;
    const lines: string[] = [];
    const worker = workerEntryProcess({ ...env(), TEMPORAL_TASK_QUEUE: taskQueue, WORKER_METRICS_PORT: '0' }, { args: ['dist/src/entry/worker.js'], cwd: app, onLine: (l) => lines.push(l) });
    const connection = await Connection.connect({ address: inject('temporalAddress') });
    try {
      await waitFor(() => lines.some((l) => l.includes('worker polling')), 60_000, 100);
      expect(lines.find((l) => l.includes('worker starting'))).toContain(`"workflowBundle":"${join(app, 'dist', 'workflow-bundle.js')}"`);
      const result = await new Client({ connection }).workflow.execute<typeof diagnosticsWorkflow>('diagnosticsWorkflow', { taskQueue, workflowId: `diagnostics-${randomUUID()}` });
      expect(result).toMatchObject({ database: 'up' });
    } finally {
      await connection.close();
      await worker.stop();
    }
  }, 90_000);

  it('the API runs as plain node, with the contract and the reference found from dist/', async () => {
    const port = await getFreePort();
    const api = workerEntryProcess({ ...env(), PORT: String(port) }, { args: ['dist/src/entry/api.js'], cwd: app });
    try {
      const url = `http://127.0.0.1:${port}`;
      await waitFor(() => fetch(`${url}/healthz`).then((r) => r.ok, () => false), 60_000, 200);
      const contract = (await (await fetch(`${url}/openapi.json`)).json()) as { openapi?: string };
      expect(contract.openapi).toMatch(/^3\./);
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      expect((await fetch(`${url}/docs/assets/redoc.standalone.js`)).status).toBe(200);
    } finally {
      await api.stop();
    }
  }, 90_000);
});
