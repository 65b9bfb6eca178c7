import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { composeBuiltCommands, copyArgs, dockerCmd, dockerfileStages } from '../../support/dockerfile';

// No Docker engine here: the Dockerfile is checked by reading. That the CMD and the compose
// commands name files `npm run build` writes is checked after a real build, in
// test/integration/runtime/compiled-build.test.ts.

const root = fileURLToPath(new URL('../../../', import.meta.url));
const stages = dockerfileStages();
const [build, runtime] = stages;

describe('Dockerfile', () => {
  it('builds in one stage and runs the result in a second, slim one', () => {
    expect(stages).toHaveLength(2);
    expect(build?.name).toBe('build');
    expect(runtime?.from).toMatch(/-slim$/);
    expect(build?.instructions.map((i) => `${i.keyword} ${i.args}`)).toEqual(expect.arrayContaining(['RUN npm ci', 'RUN npm run build']));
  });

  it('every COPY from the build context names a file or directory that exists', () => {
    for (const stage of stages) {
      for (const copy of stage.instructions.filter((i) => i.keyword === 'COPY').map((i) => copyArgs(i.args))) {
        if (copy.from) continue;
        for (const source of copy.sources) expect(existsSync(join(root, source)), `${source} (COPY in stage ${stage.name ?? stage.from})`).toBe(true);
      }
    }
  });

  it('no stage copies the development stack (stack/), the bench or the tests, and tools/ only the build scripts', () => {
    const sources = stages.flatMap((stage) => stage.instructions.filter((i) => i.keyword === 'COPY').flatMap((i) => copyArgs(i.args).sources));
    expect(sources.filter((s) => /^\.?\/?(stack|bench|test)(\/|$)/.test(s) || s === '.' || s === './')).toEqual([]);
    expect(sources.filter((s) => s.startsWith('tools'))).toEqual(['tools/build.ts', 'tools/build-portal.ts']);
    expect(readFileSync(join(root, '.dockerignore'), 'utf8').split('\n')).toContain('stack');
  });

  it('the runtime stage has production dependencies only, the compiled output and the contract, and runs as node without tsx', () => {
    const lines = runtime!.instructions.map((i) => `${i.keyword} ${i.args}`);
    expect(lines).toContain('RUN npm ci --omit=dev && npm cache clean --force');
    expect(lines).toContain('COPY --from=build /app/dist ./dist');
    expect(lines).toContain('COPY openapi ./openapi');
    expect(lines.filter((l) => l.startsWith('COPY')).join('\n')).not.toMatch(/\bsrc\b|tsconfig/);
    expect(lines).toContain('USER node');
    expect(dockerCmd(stages)).toEqual(['node', 'dist/src/entry/api.js']);
    expect(lines.join('\n')).not.toContain('tsx');
  });

  it('docker-compose.yml runs the image as the API and the worker with the same plain node', () => {
    expect(composeBuiltCommands()).toEqual({ api: ['node', 'dist/src/entry/api.js'], worker: ['node', 'dist/src/entry/worker.js'] });
  });
});
