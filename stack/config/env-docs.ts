import type { stackEnvSchema } from './config';

/** A variable of {@link stackEnvSchema}. */
export type StackEnvVar = keyof typeof stackEnvSchema.shape;

/** What the reference says of a stack variable; its default comes from the schema itself. */
export interface StackEnvDoc {
  /** What it means, in markdown (one line). */
  meaning: string;
  /** What leaving it unset means, for a variable the schema gives no default. */
  unset?: string;
}

/**
 * The meaning of every variable only the development stack reads, rendered with the schema's
 * defaults into docs/configuration.md by `npm run docs:config`, after the service's. Typed over
 * the schema's keys: a variable added to the schema without a line here does not compile.
 */
export const stackEnvDocs: Record<StackEnvVar, StackEnvDoc> = {
  DATA_DIR: { meaning: "Embedded servers' data (PostgreSQL cluster or database files, Temporal SQLite) and the generated `admin-api-key`" },
  LOCAL_STACK: {
    meaning:
      "Which servers `npm start` and `npm run servers` start: `local` (the Temporal dev server and one database) or `cluster` (PostgreSQL, two Temporal server nodes over `TEMPORAL_SHARDS` shards behind a balancer on `TEMPORAL_PORT`, the database on the same PostgreSQL; see [operations](operations.md#cluster-profile))",
  },
  MONGOD_PATH: { meaning: 'A `mongod` to use for the embedded database (otherwise looked up on `PATH`, then FerretDB)' },
  FERRETDB_PATH: { meaning: 'A FerretDB binary to use instead of building one' },
  EMBEDDED_DB_BACKEND: { meaning: 'Where the embedded FerretDB stores documents: `postgresql` (a private cluster under `DATA_DIR`, run as the `postgres` user when root) or `sqlite`' },
  POSTGRES_PORT: { meaning: "Port of the embedded FerretDB's PostgreSQL (loopback)" },
  POSTGRES_BIN_DIR: {
    meaning: "PostgreSQL's bin directory",
    unset: '`postgres` on `PATH`, then `/usr/lib/postgresql/<newest>/bin`, else installed with apt-get when root',
  },
  TEMPORAL_CLI_PATH: { meaning: 'A Temporal CLI to use instead of building v1.5.1' },
  TEMPORAL_NODE_PATH: { meaning: "A temporal-node binary (one node of the cluster profile's Temporal server) to use instead of building it" },
  TEMPORAL_SHARDS: { meaning: "History shards of the cluster profile's Temporal (`LOCAL_STACK=cluster`); fixed at its database's first start, a different value later is refused" },
  BINARY_CACHE_DIR: {
    meaning: 'Cache of built server binaries, outside the clone so fresh clones reuse them. Binaries are resolved in this order: the path variable, the program on `PATH`, the cache, then a build with Go',
    unset: '`~/.cache/webhook-service`',
  },
  SEED_DEMO_DATA: { meaning: '`npm start` loads demo data into an empty database' },
};
