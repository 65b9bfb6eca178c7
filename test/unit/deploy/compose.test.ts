import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { envSchema } from '../../../src/config/config';
import { dependencies, readCompose, requiredShellVariables } from '../../support/compose';

// No Docker engine here: docker-compose.yml is checked by reading it against the code and docs.

const root = fileURLToPath(new URL('../../../', import.meta.url));
const deployDoc = readFileSync(`${root}docs/deploy.md`, 'utf8');
const configDoc = readFileSync(`${root}docs/configuration.md`, 'utf8');
const { compose, text } = readCompose();
const services = compose.services;
const service = (name: string) => {
  const s = services[name];
  if (!s) throw new Error(`docker-compose.yml has no service ${name}`);
  return s;
};
const built = Object.entries(services).filter(([, s]) => s.build !== undefined);

describe('docker-compose.yml (production shape)', () => {
  it('runs the Temporal server on PostgreSQL, never the dev server', () => {
    expect(text).not.toMatch(/start-dev|temporalio\/temporal:|auto-setup/);
    const temporal = service('temporal');
    expect(temporal.image).toMatch(/^temporalio\/server:\d+\.\d+\.\d+$/);
    expect(temporal.environment).toMatchObject({ DB: 'postgres12', POSTGRES_SEEDS: 'postgresql' });
    expect(Number(temporal.environment?.NUM_HISTORY_SHARDS)).toBeGreaterThan(1);
    expect(deployDoc).toContain(`${temporal.environment?.NUM_HISTORY_SHARDS} history shards`);
    expect(dependencies(temporal)).toEqual({ 'temporal-schema': 'service_completed_successfully' });
  });

  it('the server and its schema tools are the version the project builds and the docs name', () => {
    const version = service('temporal').image?.split(':')[1];
    const goMod = readFileSync(`${root}stack/runtime/temporal-node/go.mod`, 'utf8');
    expect(goMod).toMatch(new RegExp(`^\\s*go\\.temporal\\.io/server v${version?.replaceAll('.', '\\.')}$`, 'm'));
    expect(deployDoc).toContain(`\`go.temporal.io/server\` v${version}`);
    expect(service('temporal-schema').image).toMatch(new RegExp(`^temporalio/admin-tools:${version?.replaceAll('.', '\\.')}-`));
  });

  it('a one-shot job writes both Temporal schemas before the server starts', () => {
    const job = service('temporal-schema');
    const script = [job.entrypoint ?? [], job.command ?? []].flat().join('\n');
    expect(script).toContain('for db in temporal temporal_visibility');
    for (const step of ['create --db', 'setup-schema -v 0.0', 'update-schema -d "/etc/temporal/schema/postgresql/v12/$$dir/versioned"']) expect(script).toContain(step);
    expect(script).toContain('--plugin postgres12');
    expect(dependencies(job)).toEqual({ postgresql: 'service_healthy' });
    expect(job.environment?.POSTGRES_USER).toBe(service('postgresql').environment?.POSTGRES_USER);
  });

  it('needs no manual Temporal setup: the worker registers the namespace and search attributes itself', () => {
    expect(text).not.toMatch(/search-attribute|namespace (create|register)/);
    expect(service('worker').environment?.TEMPORAL_NAMESPACE).toBeTruthy();
  });

  it('MongoDB is a three-member replica set written with w=majority', () => {
    const members = Object.entries(services).filter(([, s]) => s.image?.startsWith('mongo:'));
    expect(members).toHaveLength(3);
    for (const [, m] of members) expect(m.command).toEqual(['--replSet', 'rs0', '--bind_ip_all']);
    // A seed list is no WHATWG URL: split hosts and options by hand.
    const [, hosts = '', query = ''] = /^mongodb:\/\/([^/]+)\/[^?]*\?(.*)$/.exec(service('api').environment?.MONGODB_URI ?? '') ?? [];
    expect(hosts.split(',').map((h) => h.split(':')[0]).sort()).toEqual(members.map(([name]) => name).sort());
    const options = new URLSearchParams(query);
    expect(options.get('replicaSet')).toBe('rs0');
    expect(options.get('w')).toBe('majority');
  });

  it('the API and the worker run the compiled image in production mode with the same variables', () => {
    expect(built.map(([name]) => name).sort()).toEqual(['api', 'worker']);
    expect(service('api').environment).toEqual(service('worker').environment);
    expect(service('api').environment?.NODE_ENV).toBe('production');
  });

  it('every variable given to the service is one it reads and configuration.md documents', () => {
    const known = new Set(Object.keys(envSchema.shape));
    for (const [, s] of built) {
      for (const name of Object.keys(s.environment ?? {})) {
        expect(known.has(name), `${name} is not read by src/config/config.ts (the variables only npm start reads are not the image's)`).toBe(true);
        expect(configDoc, `${name} in docs/configuration.md`).toContain(`\`${name}\``);
      }
    }
  });

  it('every variable required from the shell is exported in the deploy guide', () => {
    const required = requiredShellVariables(text);
    expect(required).toEqual(expect.arrayContaining(['SECRET_ENCRYPTION_KEY', 'TEMPORAL_DB_PASSWORD']));
    for (const name of required) expect(deployDoc, `${name} exported in docs/deploy.md`).toMatch(new RegExp(`export (.* )?${name}=`));
  });

  it('every image of the production services is named in the deploy guide with its tag', () => {
    for (const [name, s] of Object.entries(services)) {
      if (!s.image || s.profiles?.includes('observability')) continue;
      expect(deployDoc, `${name}: ${s.image}`).toContain(`\`${s.image}\``);
    }
  });

  it('every dependency and named volume exists', () => {
    const volumes = new Set(Object.keys(compose.volumes ?? {}));
    for (const [name, s] of Object.entries(services)) {
      for (const dep of Object.keys(dependencies(s))) expect(services, `${name} depends on ${dep}`).toHaveProperty(dep);
      for (const v of s.volumes ?? []) {
        const source = v.split(':')[0] ?? '';
        if (!source.startsWith('.')) expect(volumes.has(source), `${name} volume ${source}`).toBe(true);
      }
    }
  });
});
