/**
 * What a scenario costs the database: the commands the API and worker processes sent (their
 * `db_commands_total` on /metrics) and, on the embedded PostgreSQL, the SQL statements FerretDB
 * ran (pg_stat_statements, preloaded by the embedded cluster when the installation ships it).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { findPostgres } from '../../stack/runtime/postgres';
import { r3 } from './context';

/** Commands by `<command> <collection>`, summed over a role's processes. */
export type CommandCounts = Record<string, number>;

/** The database's counters at one moment; a part is absent when it could not be read. */
export interface CostSnapshot {
  api?: CommandCounts;
  worker?: CommandCounts;
  sql?: SqlCounts;
}

/** FerretDB's statements on PostgreSQL: transaction control (BEGIN, COMMIT, ROLLBACK) apart from the rest. */
export interface SqlCounts {
  statements: number;
  commits: number;
  rollbacks: number;
}

/** What moved between two snapshots, per order and per delivery. */
export interface CostOfRun {
  orders: number;
  deliveries: number;
  apiCommands?: number;
  workerCommands?: number;
  apiCommandsPerOrder?: number;
  workerCommandsPerDelivery?: number;
  /** All SQL statements (API's and worker's commands) per order, and explicit transactions committed per order. */
  sqlStatementsPerOrder?: number;
  sqlCommitsPerOrder?: number;
  sqlStatementsPerDelivery?: number;
  /** The API's commands of the run by `<command> <collection>`, most first. */
  apiByCommand?: CommandCounts;
  workerByCommand?: CommandCounts;
}

/** The `db_commands_total` samples of a Prometheus text scrape, by `<command> <collection>`. */
export function parseDbCommands(text: string): CommandCounts {
  const out: CommandCounts = {};
  for (const line of text.split('\n')) {
    const m = /^db_commands_total\{([^}]*)\} (\S+)$/.exec(line);
    if (!m) continue;
    const labels: Record<string, string | undefined> = Object.fromEntries([...(m[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1] ?? '', l[2]]));
    const key = `${labels.command ?? '?'} ${labels.collection ?? ''}`.trim();
    out[key] = (out[key] ?? 0) + Number(m[2]);
  }
  return out;
}

/** `after − before` per key, without the unchanged; undefined when a counter went back (a process restarted). */
export function diffCounts(before: CommandCounts, after: CommandCounts): CommandCounts | undefined {
  const out: CommandCounts = {};
  for (const [k, v] of Object.entries(after)) {
    const d = v - (before[k] ?? 0);
    if (d < 0) return undefined;
    if (d > 0) out[k] = d;
  }
  return Object.fromEntries(Object.entries(out).sort((a, b) => b[1] - a[1]));
}

const sum = (c: CommandCounts) => Object.values(c).reduce((a, b) => a + b, 0);
const per = (v: number | undefined, n: number) => (v === undefined || n === 0 ? undefined : r3(v / n));

/** Reads the service's command counters and the embedded PostgreSQL's statement counts. */
export class CostMeter {
  private readonly psql: { bin: string; port: number } | undefined;
  /** Why SQL statements are not counted, when they are not. */
  readonly sqlUnavailable: string | undefined;

  constructor(
    private readonly metricsUrls: { api: string[]; worker: string[] },
    postgres: { binDir: string | undefined; port: number } | undefined,
  ) {
    const install = postgres ? findPostgres(postgres.binDir) : undefined;
    const bin = install ? join(install.binDir, 'psql') : undefined;
    if (!postgres) this.sqlUnavailable = 'not the embedded FerretDB on PostgreSQL';
    else if (!bin || !existsSync(bin)) this.sqlUnavailable = 'no psql beside the PostgreSQL server';
    else {
      this.psql = { bin, port: postgres.port };
      // The view needs the extension in the database it is read from; the library is preloaded by the server.
      const readable = this.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements') !== undefined && this.query('SELECT count(*) FROM pg_stat_statements') !== undefined;
      this.sqlUnavailable = readable ? undefined : 'pg_stat_statements is not loaded (the installation does not ship it)';
    }
  }

  async snapshot(): Promise<CostSnapshot> {
    const [api, worker] = await Promise.all([this.scrape(this.metricsUrls.api), this.scrape(this.metricsUrls.worker)]);
    const sql = this.sqlUnavailable ? undefined : this.sqlCounts();
    return { ...(api ? { api } : {}), ...(worker ? { worker } : {}), ...(sql ? { sql } : {}) };
  }

  /** The cost of a run of `orders` orders and `deliveries` deliveries between two snapshots. */
  static diff(a: CostSnapshot, b: CostSnapshot, orders: number, deliveries: number): CostOfRun {
    const api = a.api && b.api ? diffCounts(a.api, b.api) : undefined;
    const worker = a.worker && b.worker ? diffCounts(a.worker, b.worker) : undefined;
    const sql = a.sql && b.sql ? { statements: b.sql.statements - a.sql.statements, commits: b.sql.commits - a.sql.commits } : undefined;
    const apiCommands = api ? sum(api) : undefined;
    const workerCommands = worker ? sum(worker) : undefined;
    return {
      orders,
      deliveries,
      ...(apiCommands !== undefined ? { apiCommands, apiCommandsPerOrder: per(apiCommands, orders), apiByCommand: api } : {}),
      ...(workerCommands !== undefined ? { workerCommands, workerCommandsPerDelivery: per(workerCommands, deliveries), workerByCommand: worker } : {}),
      ...(sql
        ? { sqlStatementsPerOrder: per(sql.statements, orders), sqlCommitsPerOrder: per(sql.commits, orders), sqlStatementsPerDelivery: per(sql.statements, deliveries) }
        : {}),
    };
  }

  private async scrape(urls: string[]): Promise<CommandCounts | undefined> {
    if (urls.length === 0) return undefined;
    const out: CommandCounts = {};
    for (const url of urls) {
      const res = await fetch(url, { signal: AbortSignal.timeout(10_000) }).catch(() => undefined);
      // Metrics off (METRICS_ENABLED=false) or the process restarting: not counted.
      if (!res?.ok) return undefined;
      for (const [k, v] of Object.entries(parseDbCommands(await res.text()))) out[k] = (out[k] ?? 0) + v;
    }
    return out;
  }

  private sqlCounts(): SqlCounts | undefined {
    // FerretDB's own database only: not the bench's psql, nor a Temporal cluster on the same server.
    const row = this.query(
      `SELECT coalesce(sum(calls) FILTER (WHERE query !~* '^\\s*(begin|start|commit|end|rollback|savepoint|release)'), 0),
              coalesce(sum(calls) FILTER (WHERE query ~* '^\\s*(commit|end)'), 0),
              coalesce(sum(calls) FILTER (WHERE query ~* '^\\s*rollback'), 0)
       FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = 'ferretdb'`,
    );
    const [statements, commits, rollbacks] = (row ?? '').split('|').map(Number);
    if (statements === undefined || commits === undefined || rollbacks === undefined || [statements, commits, rollbacks].some(Number.isNaN)) return undefined;
    return { statements, commits, rollbacks };
  }

  /**
   * FerretDB's SELECTs on PostgreSQL so far, by the collection whose table they read (`calls`,
   * and `rows` returned: the rows FerretDB decoded, before its own filtering, sorting and limit).
   */
  selectsByCollection(): Record<string, { calls: number; rows: number }> | undefined {
    if (this.sqlUnavailable) return undefined;
    // FerretDB names a collection's table `<collection>_<8 hex digits>`.
    const out = this.query(
      `SELECT coalesce(substring(query from '"([a-z_]+)_[0-9a-f]{8}"'), '-'), sum(calls), sum(rows)
       FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
       WHERE d.datname = 'ferretdb' AND query ~* '^\\s*select' GROUP BY 1`,
    );
    if (out === undefined) return undefined;
    const byCollection: Record<string, { calls: number; rows: number }> = {};
    for (const line of out.split('\n').filter(Boolean)) {
      const [name, calls, rows] = line.split('|');
      byCollection[name ?? '-'] = { calls: Number(calls), rows: Number(rows) };
    }
    return byCollection;
  }

  private query(sql: string): string | undefined {
    if (!this.psql) return undefined;
    const r = spawnSync(this.psql.bin, ['-h', '127.0.0.1', '-p', String(this.psql.port), '-U', 'postgres', '-d', 'postgres', '-XAtq', '-v', 'ON_ERROR_STOP=1', '-c', sql], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    return r.status === 0 ? r.stdout.trim() : undefined;
  }
}
