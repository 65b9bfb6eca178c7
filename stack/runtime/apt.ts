import { spawnSync } from 'node:child_process';
import { findOnPath } from './binaries';

/**
 * Installs Debian packages with apt-get (update, then install without recommends) when running
 * as root on Linux where apt-get exists, printing its progress as `label`; returns whether it ran
 * and succeeded (false: the caller names the fix).
 */
export function aptInstall(label: string, packages: readonly string[], log: (line: string) => void): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0 || !findOnPath('apt-get')) return false;
  log(`${label}: not found; installing Debian's ${packages.join(', ')} with apt-get (once per machine)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...packages]]) {
    log(`$ apt-get ${args.join(' ')}`);
    const r = spawnSync('apt-get', args, { stdio: ['ignore', 'inherit', 'inherit'], env });
    if (r.status !== 0) {
      log(`${label}: apt-get ${args[0]} failed (exit ${r.status ?? r.signal})`);
      return false;
    }
  }
  return true;
}
