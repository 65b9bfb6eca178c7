import { DefaultLogger, Runtime } from '@temporalio/worker';

// Keep the SDK's INFO chatter (bundler output, worker state) out of test output.
try {
  Runtime.install({ logger: new DefaultLogger('WARN') });
} catch {
  // Already installed in this worker process by an earlier file.
}
