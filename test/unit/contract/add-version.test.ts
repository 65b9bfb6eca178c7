/**
 * Adding an envelope version, as docs/versioning.md walks through: v3 is added to a temporary
 * copy of the contract, its types are generated from that copy as `npm run generate` would, and
 * the service's code is type-checked against them. The compiler must name each place a new
 * version needs code, and only those: the renderer registry and the subscribe route table are
 * keyed by version, so a version the contract has and the code lacks cannot compile.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/openapi';
import { addVersion } from '../../support/add-version';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const generatedPath = resolve(root, 'generated/api.ts');

interface Finding {
  file: string;
  message: string;
}

/** Type-checks the service's own code (src, activities, workflows) with `generated/api.ts` read from `generated` instead. */
function typecheckAgainst(generated: string): Finding[] {
  const config = ts.getParsedCommandLineOfConfigFile(resolve(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } })!;
  const service = ['src/', 'activities/', 'workflows/'];
  const rootNames = config.fileNames.filter((f) => service.some((dir) => relative(root, f).startsWith(dir)));
  const host = ts.createCompilerHost(config.options);
  const isGenerated = (f: string) => resolve(f) === generatedPath;
  const text = readFileSync(generated, 'utf8');
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (f) => (isGenerated(f) ? text : readFile(f));
  host.getSourceFile = (f, lang, ...rest) => (isGenerated(f) ? ts.createSourceFile(f, text, lang) : getSourceFile(f, lang, ...rest));
  const program = ts.createProgram({ rootNames, options: config.options, host });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${relative(root, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : '(no file)';
    return { file: where.split(':')[0]!, message: `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}` };
  });
}

describe('adding envelope version 3 to a copy of the contract', () => {
  let dir: string;
  let findings: Finding[];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'add-version-'));
    const contractFile = join(dir, 'openapi.json');
    writeFileSync(contractFile, JSON.stringify(addVersion(loadContract(), 3)));
    // The very command `npm run generate` runs, on the copy: same options, output in the temp dir.
    const generate = (JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { scripts: { generate: string } }).scripts.generate.split(/\s+/);
    const out = join(dir, 'api.ts');
    const args = generate.slice(1).map((arg, i, all) => (all[i - 1] === '-o' ? out : arg === 'openapi/openapi.yaml' ? contractFile : arg));
    execFileSync(resolve(root, 'node_modules/.bin', generate[0]!), args, { cwd: root, stdio: 'pipe' });
    expect(readFileSync(out, 'utf8')).toContain('createSubscriptionV3');
    findings = typecheckAgainst(out);
  }, 120_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails to compile exactly where a version needs code: the renderer registry and the subscribe routes', () => {
    const files = [...new Set(findings.map((f) => f.file))].sort();
    expect(files, findings.map((f) => f.message).join('\n')).toEqual(['src/webhooks/envelopes.ts', 'src/webhooks/versions.ts']);
  });

  it('names the missing renderer of version 3', () => {
    const messages = findings.filter((f) => f.file === 'src/webhooks/envelopes.ts').map((f) => f.message).join('\n');
    expect(messages).toMatch(/\b3\b/);
  });

  it('names the unrouted subscribe operation', () => {
    const messages = findings.filter((f) => f.file === 'src/webhooks/versions.ts').map((f) => f.message).join('\n');
    expect(messages).toContain('createSubscriptionV3');
  });
});
