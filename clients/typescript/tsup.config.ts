import { defineConfig } from 'tsup';

// Three entries: everything from '.', the receiver alone (no openapi-fetch) from './receiver', and the `webhook-service` command.
export default defineConfig({
  entry: { index: 'src/index.ts', receiver: 'src/receiver.ts', cli: 'src/cli.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  // Keep 'node:crypto' as written (tsup would strip the prefix for old Node versions we do not support).
  removeNodeProtocol: false,
  // The declarations inline the service's types (generated/api.ts and the re-exported modules), so the package stands alone.
  dts: true,
  clean: true,
  sourcemap: false,
  splitting: true,
  treeshake: true,
  tsconfig: 'tsconfig.json',
});
