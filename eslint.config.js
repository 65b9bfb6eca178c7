// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

export default tseslint.config(
  { ignores: ['node_modules/', 'generated/', 'clients/typescript/dist/', '.data/', 'coverage/', 'dist/', 'test-results/', 'eslint.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  // Dependencies point one way: src (with activities and workflows) <- tools <- test, bench.
  {
    files: ['src/**/*.{ts,tsx}', 'activities/**/*.ts', 'workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/test/**', '**/bench/**', '**/tools/**'], message: 'The product imports nothing from test/, bench/ or tools/: move what both need into src/.' }] },
      ],
    },
  },
  {
    // Activities are wired by the composition roots only: the rest of src/ does not know how a workflow's work is done.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/compose/**', 'src/worker/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/test/**', '**/bench/**', '**/tools/**'], message: 'The product imports nothing from test/, bench/ or tools/: move what both need into src/.' },
            { regex: '^(\\.\\./)+activities(/|$)', message: 'Only src/compose and src/worker import activities/: what both sides need belongs in src/ or in the workflows\' model.' },
          ],
        },
      ],
    },
  },
  {
    // Activities take the workflow's identifiers (series, origin, first attempt) from their input rather than rebuilding them.
    files: ['activities/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/test/**', '**/bench/**', '**/tools/**'], message: 'The product imports nothing from test/, bench/ or tools/: move what both need into src/.' },
            { group: ['../workflows/ids'], message: 'Activities do not rebuild workflow ids: the workflow passes what they need in their input.' },
          ],
          paths: [{ name: 'amqplib', allowTypeImports: true, message: "A broker client is loaded with import() where a delivery first needs it: a worker that only POSTs never loads it." }],
        },
      ],
    },
  },
  {
    files: ['tools/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/test/**', '**/bench/**'], message: 'tools/ imports only src/: what tests or the bench share goes into tools/ or src/.' }] }],
    },
  },
  {
    files: ['bench/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/test/**'], message: 'The bench does not import tests: share through src/ or tools/.' },
            {
              // The launcher and the receiver-side signature check are public surfaces; the rest goes through one module.
              regex: '^(\\.\\./)+((activities|workflows)/|src/(?!runtime/|receiver/verify$))',
              message: 'The bench reaches the service through its public surfaces; database seeding and accounting go through bench/lib/service.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['bench/lib/service.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Domain modules know nothing of HTTP: they throw DomainError and take the contract's types from src/contract.
    files: ['src/subscriptions/**/*.ts', 'src/resources/**/*.ts', 'src/inventory/**/*.ts', 'src/deliveries/**/*.ts', 'src/portal/**/*.ts', 'src/webhooks/**/*.ts'],
    ignores: ['src/portal/ui/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/http', '**/http/*'], message: 'Domain modules must not import src/http: throw DomainError (src/errors), use src/contract for types.' },
            // A later block replaces the rule, so the one-way boundaries are repeated here.
            { group: ['**/test/**', '**/bench/**', '**/tools/**'], message: 'The product imports nothing from test/, bench/ or tools/: move what both need into src/.' },
            { regex: '^(\\.\\./)+activities(/|$)', message: 'Only src/compose and src/worker import activities/: what both sides need belongs in src/ or in the workflows\' model.' },
          ],
        },
      ],
    },
  },
  {
    // Each collection is read and written only by its repository: queries stay in named methods, beside their indexes.
    files: ['src/**/*.ts', 'activities/**/*.ts'],
    ignores: [
      'src/portal/ui/**',
      'src/alerts/admin-budget.ts',
      'src/alerts/repository.ts',
      'src/auth/api-keys.ts',
      'src/db/indexes.ts',
      'src/db/timeline.ts',
      'src/deliveries/attempts.ts',
      'src/deliveries/delivery-rate.ts',
      'src/events/dispatch-notes.ts',
      'src/events/repository.ts',
      'src/idempotency/store.ts',
      'src/inventory/repository.ts',
      'src/portal/revocations.ts',
      'src/portal/service-keys.ts',
      'src/receiver/idempotency.ts',
      'src/resources/repository.ts',
      'src/subscriptions/repository.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='collection']",
          message: 'Only repositories open collections: add a named method to the repository that owns it.',
        },
      ],
    },
  },
  {
    // Use cases, the dispatcher, the relay and the deprecation watch take their repositories from the composition roots (src/compose), which share one of each per process.
    files: ['src/**/use-cases.ts', 'src/events/dispatcher.ts', 'src/events/relay.ts', 'src/subscriptions/deprecated-versions.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        // A later block replaces the rule, so the collection boundary is repeated here.
        { selector: "CallExpression[callee.property.name='collection']", message: 'Only repositories open collections: add a named method to the repository that owns it.' },
        { selector: 'NewExpression[callee.name=/(Repository|Notes)$/]', message: 'Take the repository as a dependency: src/compose builds it once and hands it to everything that uses it.' },
      ],
    },
  },
  {
    // FerretDB v1 on PostgreSQL wedges for good on an update command of ~50+ statements (each holds a
    // pooled connection while the next waits for one): write one document per call, a few at a time.
    files: ['src/**/*.ts', 'activities/**/*.ts', 'bench/**/*.ts', 'tools/**/*.ts'],
    rules: {
      'no-restricted-properties': ['error', { property: 'bulkWrite', message: 'FerretDB v1 on PostgreSQL wedges on large multi-statement writes: use single-document calls (see src/db/timeline.ts backfill).' }],
    },
  },
  {
    // Workflows run in Temporal's deterministic sandbox: no I/O, no Node built-ins.
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'Workflows must be deterministic: do I/O in activities/.' })),
          patterns: [
            { group: ['../src/*', '../activities', '../activities/*'], allowTypeImports: true, message: 'Workflows import activities as types only.' },
            { group: ['**/test/**', '**/bench/**', '**/tools/**'], message: 'The product imports nothing from test/, bench/ or tools/: move what both need into src/.' },
          ],
        },
      ],
    },
  },
  {
    // The delivery model and the workflows' pure helpers own their vocabulary: activities and src/ import it from here, never the other way.
    files: ['workflows/delivery-model.ts', 'workflows/log-entries.ts', 'workflows/ids.ts', 'workflows/definitions.ts', 'workflows/search-attributes.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'Workflows must be deterministic: do I/O in activities/.' })),
          patterns: [
            { group: ['../src/*', '../activities', '../activities/*'], message: 'The delivery model imports nothing from activities/ or src/, not even types: they import their vocabulary from it.' },
            { group: ['**/test/**', '**/bench/**', '**/tools/**'], message: 'The product imports nothing from test/, bench/ or tools/: move what both need into src/.' },
          ],
        },
      ],
    },
  },
);
