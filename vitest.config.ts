import { defineConfig } from 'vitest/config';

// CI asks for a JSON report too, to print its closing 'N passed, N failed' line.
const jsonReport = process.env.VITEST_JSON_REPORT;

export default defineConfig({
  test: {
    reporters: jsonReport ? ['default', ['json', { outputFile: jsonReport }]] : ['default'],
    projects: [
      {
        test: {
          name: 'unit',
          // The bench's own tests live beside it (bench/test/): test/ never imports the bench.
          include: ['test/unit/**/*.test.ts', 'bench/test/**/*.test.ts'],
          testTimeout: 20_000,
          // Type-level tests (expectTypeOf, @ts-expect-error in *.test-d.ts) are checked by tsc, not run.
          typecheck: { enabled: true, include: ['test/unit/**/*.test-d.ts'], tsconfig: 'test/tsconfig.typecheck.json' },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // Starts the real Temporal dev server and MongoDB-wire database on free ports.
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles: ['test/support/quiet-temporal.ts'],
          // Two cores: run heavy integration files one at a time.
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
