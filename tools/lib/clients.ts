/**
 * The SDKs under clients/ that are generated from the contract, and the shared test vectors:
 * each target writes the paths it owns under a root, so `npm run generate:clients` writes them
 * into the repository and `npm run check:generated` into a temp dir to compare. A language is
 * added as one more entry of `clientTargets`, with its generator pinned in the repository.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { parse } from 'yaml';
import { renderVectors, vectorsPath } from './vectors';

export interface ClientTarget {
  name: string;
  /** Repository-relative files or directories the target writes, and nothing else. */
  paths: string[];
  /** Writes `paths` under `root` (a clean directory), from the repository at `repo`. */
  generate(repo: string, root: string): void;
  /** What else must agree with the contract (hand-written files), as messages. */
  problems?(repo: string): string[];
}

/**
 * A venv under `.data/venvs/` holding exactly `requirements` (a file in the repository),
 * rebuilt when that file changes. Returns its bin directory.
 */
export function pythonVenv(repo: string, requirements: string, log: (line: string) => void = () => {}): string {
  const text = readFileSync(join(repo, requirements), 'utf8');
  const name = `${requirements.replace(/[^\w.-]+/g, '_')}-${createHash('sha256').update(text).digest('hex').slice(0, 12)}`;
  const venv = join(repo, '.data', 'venvs', name);
  const bin = join(venv, 'bin');
  if (existsSync(join(venv, '.complete'))) return bin;
  log(`creating ${relative(repo, venv)} from ${requirements}`);
  rmSync(venv, { recursive: true, force: true });
  mkdirSync(dirname(venv), { recursive: true });
  execFileSync('python3', ['-c', 'import sys; sys.exit(sys.version_info < (3, 11))'], { stdio: 'inherit' });
  execFileSync('python3', ['-m', 'venv', venv], { stdio: 'inherit' });
  execFileSync(join(bin, 'python'), ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '-r', join(repo, requirements)], { stdio: 'inherit' });
  writeFileSync(join(venv, '.complete'), text);
  return bin;
}

const contractVersion = (repo: string) => (parse(readFileSync(join(repo, 'openapi/openapi.yaml'), 'utf8')) as { info: { version: string } }).info.version;

const python: ClientTarget = {
  name: 'python',
  paths: ['clients/python/webhook_service_client'],
  generate(repo, root) {
    const bin = pythonVenv(repo, 'clients/python/generator-requirements.txt');
    const out = join(root, 'clients/python/webhook_service_client');
    mkdirSync(dirname(out), { recursive: true });
    // The post hooks (ruff) run from PATH: the venv's pinned one.
    execFileSync(
      join(bin, 'openapi-python-client'),
      ['generate', '--path', join(repo, 'openapi/openapi.yaml'), '--meta', 'none', '--output-path', out, '--config', join(repo, 'clients/python/generator.yaml')],
      { stdio: 'pipe', env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` } },
    );
  },
  problems(repo) {
    const pyproject = readFileSync(join(repo, 'clients/python/pyproject.toml'), 'utf8');
    const version = /^version = "([^"]+)"/m.exec(pyproject)?.[1];
    return version === contractVersion(repo) ? [] : [`clients/python/pyproject.toml has version ${version}, the contract ${contractVersion(repo)}`];
  },
};

const go: ClientTarget = {
  name: 'go',
  paths: ['clients/go/api'],
  generate(repo, root) {
    const out = join(root, 'clients/go/api/api.gen.go');
    mkdirSync(dirname(out), { recursive: true });
    // `go tool` in clients/go/tools runs the oapi-codegen its go.mod pins (go.sum-checked).
    execFileSync(
      'go',
      ['tool', 'oapi-codegen', '-config', join(repo, 'clients/go/oapi-codegen.yaml'), '-o', out, join(repo, 'openapi/openapi.yaml')],
      { cwd: join(repo, 'clients/go/tools'), stdio: 'pipe' },
    );
  },
  problems(repo) {
    // What the generated code imports must be in go.mod/go.sum, the SDK's and its users' (e2e).
    return ['clients/go', 'clients/go/examples/e2e'].flatMap((dir) => {
      try {
        execFileSync('go', ['mod', 'tidy', '-diff'], { cwd: join(repo, dir), stdio: 'pipe' });
        return [];
      } catch (err) {
        return [`${dir}/go.mod or go.sum is not tidy: run \`go mod tidy\` there (${String((err as { stdout?: Buffer }).stdout ?? err).slice(0, 200)})`];
      }
    });
  },
};

/** openapi-generator's CLI jar at `version`, fetched from Maven Central by Maven once into .data/tools/. */
function openapiGeneratorJar(repo: string, version: string): string {
  const dir = join(repo, '.data', 'tools');
  const jar = join(dir, `openapi-generator-cli-${version}.jar`);
  if (existsSync(jar)) return jar;
  const copy = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy';
  execFileSync('mvn', ['-B', '-q', copy, `-Dartifact=org.openapitools:openapi-generator-cli:${version}`, `-DoutputDirectory=${dir}`], { stdio: 'inherit', cwd: tmpdir() });
  return jar;
}

const javaGenerated = 'clients/java/src/main/java/org/webhookservice/client';

const java: ClientTarget = {
  name: 'java',
  paths: [javaGenerated],
  generate(repo, root) {
    const jar = openapiGeneratorJar(repo, '7.25.0');
    const out = mkdtempSync(join(tmpdir(), 'openapi-generator-java-'));
    try {
      // Not `webhooks`: its operations share the Subscriptions tag and would overwrite SubscriptionsApi.java.
      const parts = 'apis,models,supportingFiles,apiTests=false,modelTests=false,apiDocs=false,modelDocs=false';
      execFileSync(
        'java',
        ['-jar', jar, 'generate', '-g', 'java', '-i', join(repo, 'openapi/openapi.yaml'), '-o', out, '-c', join(repo, 'clients/java/generator.yaml'), '--global-property', parts],
        { stdio: 'pipe' },
      );
      cpSync(join(out, 'src/main/java/org/webhookservice/client'), join(root, javaGenerated), { recursive: true });
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  },
  problems(repo) {
    const pom = readFileSync(join(repo, 'clients/java/pom.xml'), 'utf8');
    const version = /<artifactId>webhook-service-client<\/artifactId>\s*(?:<!--[^]*?-->\s*)?<version>([^<]+)<\/version>/.exec(pom)?.[1];
    return version === contractVersion(repo) ? [] : [`clients/java/pom.xml has version ${version}, the contract ${contractVersion(repo)}`];
  },
};

const vectors: ClientTarget = {
  name: 'vectors',
  paths: [vectorsPath],
  generate(_repo, root) {
    mkdirSync(dirname(join(root, vectorsPath)), { recursive: true });
    writeFileSync(join(root, vectorsPath), renderVectors());
  },
};

/** Every generated target, in the order they are written. */
export const clientTargets: ClientTarget[] = [vectors, python, go, java];

/** Every file under `path` (itself when a file), relative to `base`. */
function filesOf(base: string, path: string): string[] {
  const full = join(base, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full).flatMap((entry) => (entry === '__pycache__' ? [] : filesOf(base, join(path, entry))));
}

/** What differs between the committed `paths` and a fresh generation in `fresh`: file names. */
export function staleFiles(repo: string, fresh: string, paths: readonly string[]): string[] {
  const committed = new Set(paths.flatMap((p) => filesOf(repo, p)));
  const generated = new Set(paths.flatMap((p) => filesOf(fresh, p)));
  const all = [...new Set([...committed, ...generated])].sort();
  return all.filter((f) => !committed.has(f) || !generated.has(f) || !readFileSync(join(repo, f)).equals(readFileSync(join(fresh, f))));
}

/** Replaces the target's paths in the repository with what was generated under `fresh`. */
export function install(repo: string, fresh: string, paths: readonly string[]): void {
  for (const p of paths) {
    rmSync(join(repo, p), { recursive: true, force: true });
    cpSync(join(fresh, p), join(repo, p), { recursive: true });
  }
}
