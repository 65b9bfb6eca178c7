/**
 * The variables only the development stack reads (`npm start`, `npm run servers`, the harness):
 * where the embedded servers keep data, which profile runs, how their binaries are found. The API
 * and the worker never read them; their own variables are src/config/config.ts's.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { bool, type Config, ConfigError, loadConfig, optionalString, port } from '../../src/config/config';

/** Every variable only the stack reads, with its default. `.env.example` lists them beside the service's. */
export const stackEnvSchema = z.object({
  DATA_DIR: z.string().min(1).default('.data'),
  LOCAL_STACK: z.enum(['local', 'cluster']).default('local'),
  MONGOD_PATH: optionalString,
  FERRETDB_PATH: optionalString,
  EMBEDDED_DB_BACKEND: z.enum(['postgresql', 'sqlite']).default('postgresql'),
  POSTGRES_PORT: port(54320),
  POSTGRES_BIN_DIR: optionalString,
  TEMPORAL_CLI_PATH: optionalString,
  TEMPORAL_NODE_PATH: optionalString,
  TEMPORAL_SHARDS: z.coerce.number().int().min(1).max(16_384).default(8),
  BINARY_CACHE_DIR: optionalString,
  SEED_DEMO_DATA: bool(true),
});

/** What only the launcher reads, merged into the service's own sections of {@link Config}. */
export interface LauncherConfig {
  /** Embedded servers' data and the generated `admin-api-key` (DATA_DIR). */
  dataDir: string;
  /** The servers `npm start` and `npm run servers` start (LOCAL_STACK): a profile of stack/runtime/stack.ts. */
  localStack: 'local' | 'cluster';
  /** Cache of built server binaries (BINARY_CACHE_DIR). */
  binaryCacheDir: string;
  /** Load demo data into an empty database at `npm start`. */
  seedDemoData: boolean;
  mongo: {
    mongodPath: string | undefined;
    ferretdbPath: string | undefined;
    /** Where the embedded FerretDB keeps documents. */
    embeddedBackend: 'postgresql' | 'sqlite';
    /** The embedded FerretDB's private PostgreSQL. */
    postgresPort: number;
    postgresBinDir: string | undefined;
  };
  temporal: {
    cliPath: string | undefined;
    /** A temporal-node binary (the cluster profile's server) instead of the cached build. */
    nodePath: string | undefined;
    /** History shards of the cluster profile's Temporal, fixed at its database's first start. */
    shards: number;
  };
}

/** The service's configuration and the launcher's, as the stack works from it. */
export type StackConfig = Config & LauncherConfig;

/**
 * Parses and validates the service's variables and the stack's once, failing fast with every
 * invalid variable's name (as the service's own `loadConfig` does).
 */
export function loadStackConfig(source: NodeJS.ProcessEnv = process.env, isTerminal = process.stdout.isTTY === true): StackConfig {
  const parsed = stackEnvSchema.safeParse(source);
  const lines = parsed.success ? [] : parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
  let service: Config;
  try {
    service = loadConfig(source, isTerminal);
  } catch (err) {
    if (err instanceof ConfigError && lines.length > 0) throw new ConfigError(`${err.message}\n${lines.join('\n')}`);
    throw err;
  }
  if (!parsed.success) throw new ConfigError(`Invalid environment configuration:\n${lines.join('\n')}`);
  const e = parsed.data;
  return {
    ...service,
    dataDir: resolve(e.DATA_DIR),
    localStack: e.LOCAL_STACK,
    binaryCacheDir: e.BINARY_CACHE_DIR ?? join(homedir(), '.cache', 'webhook-service'),
    seedDemoData: e.SEED_DEMO_DATA,
    mongo: {
      ...service.mongo,
      mongodPath: e.MONGOD_PATH,
      ferretdbPath: e.FERRETDB_PATH,
      embeddedBackend: e.EMBEDDED_DB_BACKEND,
      postgresPort: e.POSTGRES_PORT,
      postgresBinDir: e.POSTGRES_BIN_DIR,
    },
    temporal: { ...service.temporal, cliPath: e.TEMPORAL_CLI_PATH, nodePath: e.TEMPORAL_NODE_PATH, shards: e.TEMPORAL_SHARDS },
  };
}
