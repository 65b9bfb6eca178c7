import { defineConfig } from 'tsup';

// Two entries: everything from '.', and the receiver alone (no openapi-fetch) from './receiver'.
export default defineConfig({
  entry: { index: 'src/index.ts', receiver: 'src/receiver.ts' },
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
