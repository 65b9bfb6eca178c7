/**
 * The service under chaos (`--stack cluster`: two Temporal nodes on PostgreSQL instead of the dev
 * server): embedded Temporal dev server and database (planLocalServers, whose
 * units start a server again on the same port and data), two API processes and two workers, and
 * (`--broker redis`) the Redis a broker subscription delivers to, all on free loopback ports in a
 * temp DATA_DIR. Every part can be SIGKILLed and started again by role; a part that dies by itself
 * is noted and started again.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from 'mongodb';
import type { TemporalGateway } from '../../stack/harness/service';
import { resolveBinary, temporalNode } from '../../stack/runtime/binaries';
import { describeCluster } from '../../stack/runtime/temporal-cluster';
import { cleanEnvironment, type Cleanup, launchStack, runClients, runConfig, serviceEnvironment } from '../../stack/harness/stack';
import { type StreamBroker, startStreamBroker } from '../../stack/harness/stream-broker';
import type { ChaosOptions } from './options';

/** Service output worth counting: what explains refusals and duplicates. */
export const notable: Record<string, string> = {
  // A workflow task (with its round of local-activity POSTs) ran past the server's task timeout: its round runs again.
  'workflow task timed out': 'Task not found when completing',
  'workflow task over 5 s': 'TMPRL1104',
  'workflow start deferred to the relay': 'Failed to start Workflow',
  E11000: 'E11000',
};

/** The parts the run kills and starts again. */
export type Role = 'api-0' | 'api-1' | 'worker-0' | 'worker-1' | 'temporal' | 'temporal-1' | 'temporal-2' | 'database' | 'broker';

/** Something that died without being told to. */
export interface UnexpectedExit {
  role: string;
  at: number;
  code: number | null;
  signal: string | null;
  lastOutput: string;
}

export interface ChaosStack {
  dataDir: string;
  apiUrls: [string, string];
  apiKey: string;
  db: Db;
  temporal: TemporalGateway;
  dbDescription: string;
  /** The delivery settings handed to the workers. */
  serviceEnv: Record<string, string>;
  /** The broker of the broker subscription (`--broker redis`), killed and started as the `broker` role. */
  broker: StreamBroker | undefined;
  unexpectedExits: UnexpectedExit[];
  /** Output lines per role (LOG_LEVEL=warn: warnings and errors). */
  outputLines: Record<string, number>;
  /** Lines with a {@link notable} pattern, per pattern and role. */
  notableLines: Record<string, Record<string, number>>;
  /** Cluster stack: how long after each node's SIGKILL the survivor owned every shard. */
  shardMoves: string[];
  /** SIGKILLs the role's process and its descendants, as a crash would. */
  kill(role: Role): Promise<void>;
  /** Starts the role again (same port, same data) and waits until it answers. */
  start(role: Role): Promise<void>;
  pids(): Partial<Record<string, number>>;
}

/** Starts everything; every started part is stopped by the cleanups, newest first. */
export async function startChaosStack(opts: ChaosOptions, cleanups: Cleanup[], log: (line: string) => void): Promise<ChaosStack> {
  // Only embedded servers: the run kills them, so it never points at external ones.
  const config = await runConfig('webhook-chaos', cleanups, false);
  // Before the service, so it stops after the workers, which close their connections to it.
  const broker = opts.broker === 'redis' ? await startStreamBroker(config.dataDir, cleanups, log) : undefined;
  const outputLines: Record<string, number> = {};
  const notableLines: Record<string, Record<string, number>> = {};
  const unexpectedExits: UnexpectedExit[] = [];
  let clients: Awaited<ReturnType<typeof runClients>> | undefined;
  const stack = await launchStack(
    {
      config,
      profile: opts.stack,
      apis: 2,
      workers: 2,
      freePorts: true,
      baseEnv: cleanEnvironment(),
      serviceEnv: {
        ...serviceEnvironment(config),
        LOG_LEVEL: 'warn',
        RELAY_INTERVAL: '1s',
        DELIVERY_RETRY_SCHEDULE: opts.retrySchedule,
        DELIVERY_MAX_ATTEMPTS: String(opts.maxAttempts),
        DELIVERY_TIMEOUT: '5s',
        // Production requires secrets sealed at rest: a throw-away key for the run.
        SECRET_ENCRYPTION_KEY: `chaos:${randomBytes(32).toString('base64')}`,
      },
      ...(opts.verbose ? { serverOutput: (server: string, line: string) => process.stderr.write(`[${server}] ${line}\n`) } : {}),
      processOutput: (name, line) => {
        const n = (outputLines[name] = (outputLines[name] ?? 0) + 1);
        for (const [label, pattern] of Object.entries(notable)) {
          if (!line.includes(pattern)) continue;
          const counts = (notableLines[label] ??= {});
          counts[name] = (counts[name] ?? 0) + 1;
        }
        // The first few warnings per process are shown; a repeated error would flood the output.
        if (opts.verbose || n <= 5) process.stderr.write(`[${name}] ${line.slice(0, 400)}\n`);
      },
      onUnexpectedExit: (part, exit) => unexpectedExits.push({ role: part.name, at: Date.now(), code: exit.code, signal: exit.signal, lastOutput: exit.lastOutput }),
      // A part that dies by itself is started again; a crash loop is a finding, not something to hammer.
      supervise: { onFatal: (reason) => log(reason) },
      beforeServices: async (servers) => {
        clients = await runClients({ servers: servers.env, config, owner: 'chaos', dropDatabase: false }, cleanups);
      },
    },
    cleanups,
    log,
  );
  const { db, apiKey, temporal } = clients!;
  // The database role is the wire server and, under FerretDB, its PostgreSQL: killed and started together.
  const database = stack.serverParts.filter((p) => ['ferretdb', 'mongod', 'postgres'].includes(p.name));
  if (database.length === 0 || !stack.serverParts.some((p) => p.name.startsWith('temporal'))) throw new Error('the embedded servers were not planned (is MONGODB_URI or TEMPORAL_ADDRESS set?)');
  const byStartOrder = database.sort((a, b) => Number(b.name === 'postgres') - Number(a.name === 'postgres'));
  const shardMoves: string[] = [];
  // A killed cluster node counts as down until the survivor owns its shards (at most 90 s), then the fault's own time.
  const awaitShardMove = async (role: Role) => {
    const binary = (await resolveBinary(temporalNode, { cacheDir: config.binaryCacheDir, log })).path;
    const killedAt = Date.now();
    const shards = config.temporal.shards;
    while (Date.now() - killedAt < 90_000) {
      const d = await describeCluster(binary, stack.servers.env.TEMPORAL_ADDRESS!).catch(() => undefined);
      const owners = Object.entries(d?.historyShards ?? {}).filter(([, owned]) => (owned?.length ?? 0) > 0);
      if (d?.rings.history?.length === 1 && owners.length === 1 && owners[0]![1].length === shards) {
        shardMoves.push(`${role} killed: the other node's history (${owners[0]![0]}) owned all ${shards} shards ${((Date.now() - killedAt) / 1000).toFixed(1)}s later`);
        log(shardMoves.at(-1)!);
        return;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    shardMoves.push(`${role} killed: its shards had not moved to the other node after 90 s`);
    log(shardMoves.at(-1)!);
  };
  return {
    dataDir: config.dataDir,
    apiUrls: [stack.apis[0]!.url, stack.apis[1]!.url],
    apiKey,
    db,
    temporal,
    dbDescription: stack.servers.database,
    serviceEnv: stack.serviceEnv,
    broker,
    unexpectedExits,
    outputLines,
    notableLines,
    shardMoves,
    async kill(role) {
      if (role === 'broker') return broker!.kill();
      await Promise.all((role === 'database' ? database : [stack.part(role)]).map((p) => p.kill()));
      if (role === 'temporal-1' || role === 'temporal-2') await awaitShardMove(role);
    },
    async start(role) {
      if (role === 'broker') return broker!.start();
      for (const p of role === 'database' ? byStartOrder : [stack.part(role)]) await p.start();
    },
    pids: () => {
      const p = stack.pids();
      return { ...p, database: p.ferretdb ?? p.mongod, ...(broker ? { broker: broker.pid() } : {}) };
    },
  };
}
