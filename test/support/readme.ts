import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The shell block that follows `<!-- walkthrough:<name> ... -->` in the README, with each
 * `replacements` key replaced (ports and data directory: the rest runs exactly as written).
 */
export function readmeWalkthrough(root: string, name: string, replacements: Record<string, string>): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const block = new RegExp(`<!-- walkthrough:${name}\\b[^>]*-->\\s*\`\`\`sh\\n([\\s\\S]*?)\`\`\``).exec(readme)?.[1];
  if (block === undefined) throw new Error(`README.md has no walkthrough:${name} shell block`);
  return Object.entries(replacements).reduce((script, [from, to]) => script.split(from).join(to), block);
}

/** Runs a walkthrough with bash (stopping at the first failing command) and returns what it printed. */
export async function runWalkthrough(root: string, script: string, timeoutMs = 60_000): Promise<string> {
  const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], { cwd: root, timeout: timeoutMs });
  return stdout;
}
