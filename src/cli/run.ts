import { runCli } from './main';

/** Runs the command line of this process and exits with its code; Ctrl-C ends a long poll or a --follow cleanly. */
export function runFromProcess(): void {
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());
  runCli(process.argv.slice(2), { print: (line) => console.log(line), env: process.env, signal: stop.signal }).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : String(err));
      process.exit(1);
    },
  );
}
