import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BinaryError } from './build-cache';
import { aptInstall } from './apt';
import { findOnPath } from './binaries';

/** The programs of one PostgreSQL installation the embedded database needs. */
export interface PostgresInstall {
  binDir: string;
  version: number;
}

const debianRoot = '/usr/lib/postgresql';

/**
 * Finds PostgreSQL's server programs: POSTGRES_BIN_DIR, then `postgres` and `initdb` on PATH,
 * then Debian's /usr/lib/postgresql/<version>/bin (the newest).
 */
export function findPostgres(explicitBinDir?: string, pathEnv: string | undefined = process.env.PATH): PostgresInstall | undefined {
  if (explicitBinDir) {
    if (!hasServer(explicitBinDir)) throw new BinaryError(`POSTGRES_BIN_DIR=${explicitBinDir} has no postgres and initdb`);
    return { binDir: explicitBinDir, version: serverVersion(explicitBinDir) };
  }
  const onPath = findOnPath('postgres', pathEnv);
  if (onPath && findOnPath('initdb', pathEnv)) {
    // Through any link, to the installation's own bin directory (which has pg_isready too).
    const binDir = dirname(realpathSync(onPath));
    if (hasServer(binDir)) return { binDir, version: serverVersion(binDir) };
  }
  if (!existsSync(debianRoot)) return undefined;
  const versions = readdirSync(debianRoot)
    .map(Number)
    .filter((v) => Number.isInteger(v) && hasServer(join(debianRoot, String(v), 'bin')))
    .sort((a, b) => b - a);
  const newest = versions[0];
  return newest === undefined ? undefined : { binDir: join(debianRoot, String(newest), 'bin'), version: newest };
}

function hasServer(binDir: string): boolean {
  return existsSync(join(binDir, 'postgres')) && existsSync(join(binDir, 'initdb'));
}

function serverVersion(binDir: string): number {
  const out = spawnSync(join(binDir, 'postgres'), ['--version'], { encoding: 'utf8' }).stdout ?? '';
  return Number(/(\d+)\.\d+/.exec(out)?.[1] ?? 0);
}

/**
 * Installs Debian's PostgreSQL server with apt-get when running as root where apt-get exists
 * (as the browser for the portal tests is installed); returns what it found afterwards.
 */
export function installPostgres(log: (line: string) => void): PostgresInstall | undefined {
  return aptInstall('postgresql', ['postgresql'], log) ? findPostgres() : undefined;
}

/** Finds PostgreSQL, installing it when this process may; else fails naming the fix. */
export function requirePostgres(explicitBinDir: string | undefined, log: (line: string) => void): PostgresInstall {
  const found = findPostgres(explicitBinDir) ?? installPostgres(log);
  if (found) return found;
  throw new BinaryError(
    'PostgreSQL is not installed: the embedded database (FerretDB) stores its data in it. Install the server ' +
      '(Debian/Ubuntu: `apt-get install postgresql`), or set POSTGRES_BIN_DIR to its bin directory, or set ' +
      'EMBEDDED_DB_BACKEND=sqlite, or MONGODB_URI to use an existing MongoDB.',
  );
}

/** The uid and gid of a system user, from /etc/passwd. */
export function systemUser(name: string): { uid: number; gid: number } | undefined {
  if (!existsSync('/etc/passwd')) return undefined;
  for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
    const [user, , uid, gid] = line.split(':');
    if (user === name && uid && gid) return { uid: Number(uid), gid: Number(gid) };
  }
  return undefined;
}
