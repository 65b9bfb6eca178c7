import { describe, expect, it } from 'vitest';
import { ConfigError, envSchema, loadConfig } from '../../../src/config/config';
import { loadStackConfig, stackEnvSchema } from '../../../stack/config/config';

describe('loadStackConfig', () => {
  it("applies the stack's documented defaults over the service's", () => {
    const c = loadStackConfig({});
    expect(c.dataDir.endsWith('.data')).toBe(true);
    expect(c).toMatchObject({ localStack: 'local', seedDemoData: true, mongo: { embeddedBackend: 'postgresql', postgresPort: 54320, dbName: 'webhooks' }, temporal: { shards: 8, namespace: 'default' } });
    expect(c.binaryCacheDir.endsWith('.cache/webhook-service')).toBe(true);
  });

  it('starts the local profile with 8 shards for a cluster unless LOCAL_STACK and TEMPORAL_SHARDS say otherwise', () => {
    expect(loadStackConfig({ LOCAL_STACK: 'cluster', TEMPORAL_SHARDS: '16' })).toMatchObject({ localStack: 'cluster', temporal: { shards: 16, address: undefined } });
  });

  it("holds the service's configuration unchanged", () => {
    const env = { PORT: '4000', MONGODB_URI: 'mongodb://db.internal:27017/', TEMPORAL_PORT: '7300', SEED_DEMO_DATA: 'false' };
    expect(loadStackConfig(env, false)).toMatchObject(loadConfig(env, false));
  });

  it.each([
    [{ LOCAL_STACK: 'kubernetes' }, 'LOCAL_STACK'],
    [{ TEMPORAL_SHARDS: '0' }, 'TEMPORAL_SHARDS'],
    [{ TEMPORAL_SHARDS: '2.5' }, 'TEMPORAL_SHARDS'],
    [{ POSTGRES_PORT: '0' }, 'POSTGRES_PORT'],
  ])('fails fast naming the variable: %o', (env, name) => {
    expect(() => loadStackConfig(env)).toThrow(ConfigError);
    expect(() => loadStackConfig(env)).toThrow(new RegExp(`^Invalid environment configuration:\\n  ${name}: `));
  });

  it("names the service's invalid variables and the stack's together", () => {
    expect(() => loadStackConfig({ PORT: 'eighty', LOCAL_STACK: 'kubernetes' })).toThrow(/^Invalid environment configuration:\n {2}PORT: .*\n {2}LOCAL_STACK: /);
  });

  it('never reads a variable the service reads: each is read by one side only', () => {
    expect(Object.keys(stackEnvSchema.shape).filter((k) => k in envSchema.shape)).toEqual([]);
  });
});
