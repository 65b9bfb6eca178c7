import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { aptInstall } from '../../stack/runtime/apt';

/** Commands tried in order after CHROMIUM_PATH. */
const candidates = ['/usr/bin/chromium', 'chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable named `cmd` on PATH (or `cmd` itself when it is a path). */
function which(cmd: string, env: NodeJS.ProcessEnv): string | undefined {
  if (cmd.includes('/')) return executable(cmd) ? cmd : undefined;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && executable(join(dir, cmd))) return join(dir, cmd);
  }
  return undefined;
}

/** Path of a Chromium to drive: CHROMIUM_PATH when set (and only it), else the first usual command found. */
export function findChromium(env: NodeJS.ProcessEnv): string | undefined {
  if (env.CHROMIUM_PATH) return executable(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : undefined;
  for (const c of candidates) {
    const p = which(c, env);
    if (p) return p;
  }
  return undefined;
}

/**
 * Installs Debian's `chromium` with apt-get when running as root where apt-get exists, printing
 * its progress; returns whether it ran and succeeded (false: the caller names the fix).
 */
export function installChromium(log: (line: string) => void): boolean {
  return aptInstall('chromium', ['chromium'], log);
}
