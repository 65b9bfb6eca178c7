/** Running an SDK's toolchain (pip, mvn, go, java) from a test, its output kept for the failure. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** Runs a command to its end; a failure's message carries its whole output. */
export async function runCommand(command: string, args: string[], opts: { cwd: string; timeout: number; env?: NodeJS.ProcessEnv }): Promise<{ stdout: string; stderr: string }> {
  try {
    return await execFileAsync(command, args, { maxBuffer: 16 * 1024 * 1024, ...opts });
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`, { cause: err });
  }
}
