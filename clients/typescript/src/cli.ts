#!/usr/bin/env node
// The package's `webhook-service` command: the service's own CLI, bundled (see src/cli).
import { runFromProcess } from '../../../src/cli/run';

runFromProcess();
