#!/usr/bin/env node
// The CLI from a checkout: the TypeScript sources run through tsx, as every entry point here does.
import { register } from 'tsx/esm/api';

register();
const { runFromProcess } = await import('../src/cli/run.ts');
runFromProcess();
