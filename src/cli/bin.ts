#!/usr/bin/env node
import { runCli } from './main';

// Ctrl-C ends a long poll or a --follow cleanly.
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
