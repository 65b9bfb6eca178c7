import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceVersion } from '../../../src/version';
import { startTestApi, startTestWorker, type TestApi, type TestWorker } from '../../support/api';
import { tempDir } from '../../support/servers';

const execFileAsync = promisify(execFile);

/** Runs a command; a failure's message carries its whole output (tsc reports type errors on stdout). */
async function run(command: string, args: string[], opts: { cwd: string; timeout: number; env?: NodeJS.ProcessEnv }): Promise<{ stdout: string }> {
  try {
    return await execFileAsync(command, args, opts);
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`, { cause: err });
  }
}
const root = fileURLToPath(new URL('../../../', import.meta.url));
const packageDir = join(root, 'clients/typescript');
const tsc = join(root, 'node_modules/typescript/bin/tsc');
// The consumer's @types/node is the one the repository builds with, so --prefer-offline finds it in the npm cache.
const typesNodeVersion = (JSON.parse(readFileSync(join(root, 'node_modules/@types/node/package.json'), 'utf8')) as { version: string }).version;

/** A consumer's tsconfig: strict, ESM on Node's own resolution, and the package's declarations checked too (no skipLibCheck). */
const tsconfig = {
  compilerOptions: {
    strict: true,
    target: 'ES2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    types: ['node'],
    skipLibCheck: false,
    rootDir: '.',
    outDir: 'out',
  },
  include: ['main.ts'],
};
/** The same program as a bundler-based project would resolve it. */
const bundlerTsconfig = { extends: './tsconfig.json', compilerOptions: { module: 'esnext', moduleResolution: 'bundler', noEmit: true } };

/**
 * The integrator's program: subscribes a receiver of its own, asks the service for a test event,
 * verifies the signed delivery with the package's `verify` and prints the verified event id.
 */
const program = `import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CONTRACT_VERSION, createClient, type EnvelopeV1 } from '@webhook-service/client';
import { verify, WebhookVerificationError } from '@webhook-service/client/receiver';

const client = createClient({ baseUrl: process.env.SERVICE_URL!, apiKey: process.env.API_KEY! });
const signature = process.env.SIGNATURE === 'ed25519' ? 'ed25519' : 'hmac-sha256';
let secret = '';

/** Never called: the typecheck fails when the types stop catching a wrong body. */
export async function wrongBody(): Promise<void> {
  // @ts-expect-error events is a list of event types, not a number
  await client.POST('/api/webhooks/v1/subscribe', { body: { url: 'https://example.com/hooks', events: 42 } });
}

const delivered = new Promise<EnvelopeV1>((resolve, reject) => {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      try {
        const event = verify<EnvelopeV1>(body, req.headers, secret);
        res.writeHead(204).end();
        server.close();
        resolve(event);
      } catch (err) {
        res.writeHead(err instanceof WebhookVerificationError ? 401 : 500).end();
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  });
  server.listen(0, '127.0.0.1', () => {
    void subscribeAndTest(\`http://127.0.0.1:\${(server.address() as AddressInfo).port}/hooks\`).catch(reject);
  });
  setTimeout(() => reject(new Error('no delivery within 60 s')), 60_000).unref();
});

async function subscribeAndTest(url: string): Promise<void> {
  const sub = await client.POST('/api/webhooks/v1/subscribe', { body: { url, events: ['webhook.test'], signature } });
  if (!sub.data) throw new Error(\`subscribe: \${sub.response.status} \${JSON.stringify(sub.error)}\`);
  secret = sub.data.secret;
  if (signature === 'ed25519') {
    // What any receiver can fetch at any time: the public key.
    const got = await client.GET('/api/webhooks/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: sub.data.id } } });
    if (!got.data?.public_key) throw new Error(\`no public key: \${got.response.status}\`);
    secret = got.data.public_key;
  }
  console.log(\`subscribed \${sub.data.id} \${sub.data.signature} \${secret.slice(0, 5)}\`);
  const sent = await client.POST('/api/webhooks/v1/subscriptions/{subscription_id}/test', { params: { path: { subscription_id: sub.data.id } } });
  if (!sent.data) throw new Error(\`test event: \${sent.response.status} \${JSON.stringify(sent.error)}\`);
  console.log(\`sent \${sent.data.event_id}\`);
}

const event = await delivered;
// The envelope types narrow on the event name: data is the test event's.
if (event.event !== 'webhook.test') throw new Error(\`unexpected \${event.event}\`);
console.log(\`verified \${event.id} \${event.event} for \${event.data.subscription_id} (contract \${CONTRACT_VERSION})\`);
`;

describe('client package: an integrator installs the packed tarball, typechecks and runs against the service', () => {
  let api: TestApi;
  let worker: TestWorker;
  let dir: string;

  beforeAll(async () => {
    dir = tempDir('client-package');
    api = await startTestApi();
    worker = await startTestWorker(api);
  });
  afterAll(async () => {
    await worker?.stop();
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('builds, packs and installs outside the repository; the program typechecks (nodenext and bundler) and verifies a delivered test event; its CLI runs', { timeout: 400_000 }, async () => {
    // Build as a fresh clone would, then pack without the prepack build (it just ran).
    await run('npm', ['run', 'build:client'], { cwd: root, timeout: 120_000 });
    await run('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: packageDir, timeout: 60_000 });
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
    expect(tarball).toMatch(/^webhook-service-client-\d+\.\d+\.\d+\.tgz$/);

    const app = join(dir, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'integrator', private: true, type: 'module' }));
    await run('npm', ['install', join(dir, tarball!), `@types/node@${typesNodeVersion}`, '--no-audit', '--no-fund', '--prefer-offline'], {
      cwd: app,
      timeout: 180_000,
    });
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
    writeFileSync(join(app, 'tsconfig.bundler.json'), JSON.stringify(bundlerTsconfig, null, 2));
    writeFileSync(join(app, 'main.ts'), program);

    // tsc exits non-zero on any type error, an unused @ts-expect-error included.
    await run(process.execPath, [tsc, '-p', join(app, 'tsconfig.bundler.json')], { cwd: app, timeout: 120_000 });
    await run(process.execPath, [tsc, '-p', app], { cwd: app, timeout: 120_000 });

    const { key } = await api.clientWith(['webhooks:read', 'webhooks:write'], 'owner-client-package');
    // Once with the default HMAC secret, once with an ed25519 subscription's public key.
    for (const [signature, prefix] of [['hmac-sha256', 'whsec'], ['ed25519', 'whpk_']]) {
      const { stdout } = await run(process.execPath, [join(app, 'out/main.js')], {
        cwd: app,
        timeout: 90_000,
        env: { ...process.env, SERVICE_URL: api.baseUrl, API_KEY: key, SIGNATURE: signature },
      });
      const sent = /^sent (evt_\w+)$/m.exec(stdout)?.[1];
      expect(sent, stdout).toBeDefined();
      const subscribed = /^subscribed (sub_\w+) (\S+) (\S+)$/m.exec(stdout);
      expect(subscribed?.slice(2), stdout).toEqual([signature, prefix]);
      expect(stdout).toContain(`verified ${sent} webhook.test for ${subscribed?.[1]} (contract ${serviceVersion})`);
    }

    // The installed package's command, as `npx webhook-service` runs it: it reaches the service with the key.
    const cli = join(app, 'node_modules/.bin/webhook-service');
    expect((await run(cli, ['--help'], { cwd: app, timeout: 30_000 })).stdout).toContain('listen --forward-to <url>');
    // `events` reads a listen subscription's events; one made over the API, as `listen` makes it, has none yet.
    const made = await fetch(`${api.baseUrl}/api/webhooks/v1/subscribe`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
      body: JSON.stringify({ url: 'pull://package', events: ['webhook.test'], destination: { type: 'pull' } }),
    });
    expect(made.status, await made.clone().text()).toBe(201);
    const listed = await run(cli, ['events', '--label', 'package'], { cwd: app, timeout: 60_000, env: { ...process.env, WEBHOOK_SERVICE_URL: api.baseUrl, WEBHOOK_SERVICE_API_KEY: key } });
    expect(listed.stdout).toBe('');
  });
});

