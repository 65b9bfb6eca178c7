// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

/** The product (src/, activities/, workflows/) imports nothing from the development stack, tests, the bench or tools. */
const productBoundary = {
  group: ['**/test/**', '**/bench/**', '**/tools/**', '**/stack/**'],
  message: 'The product imports nothing from stack/, test/, bench/ or tools/: move what both need into src/.',
};

/**
 * What stack/ may import of the product: its public entry points, which are the configuration
 * (src/config/config.ts), the composition roots (src/compose/*, with dev-stack.ts for the stack's
 * own needs) and the receiver kit's signature check; the API and worker entry points are run, not imported.
 */
const stackBoundary = [
  { group: ['**/test/**', '**/bench/**', '**/tools/**'], message: 'stack/ imports nothing from test/, bench/ or tools/.' },
  {
    regex: '^(\\.\\./)+((activities|workflows|generated)(/|$)|src/(?!config/config$|compose/[\\w-]+$|receiver/verify$))',
    message: "stack/ imports the product's public entry points only: src/config/config, src/compose/* (dev-stack.ts for what the stack needs); see stack/README.md.",
  },
];

export default tseslint.config(
  { ignores: ['node_modules/', 'generated/', 'clients/typescript/dist/', '.data/', 'coverage/', 'dist/', 'test-results/', 'eslint.config.js', 'bin/'] },
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
  // Dependencies point one way: the product (src, activities, workflows) <- stack (the development
  // stack: launcher, embedded servers, harness) <- tools <- test, bench. stack/README.md says why.
  {
    files: ['src/**/*.{ts,tsx}', 'activities/**/*.ts', 'workflows/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [productBoundary] }] },
  },
  {
    // The launcher, its servers and entry points see the product's public entry points only, and not the harness.
    files: ['stack/**/*.ts'],
    ignores: ['stack/harness/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...stackBoundary, { regex: '(^|/)harness/', message: 'The launcher does not import the harness (stack/harness/): the harness builds on the launcher.' }] }] },
  },
  {
    // The harness (bench, soak, chaos) also runs the receiver kit in its receiver process.
    files: ['stack/harness/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: stackBoundary }] },
  },
  {
    // The harness's one module that reaches past the public entry points: seeding and accounting.
    files: ['stack/harness/service.ts'],
    rules: { 'no-restricted-imports': 'off' },
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
            productBoundary,
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
            productBoundary,
            { group: ['../workflows/ids'], message: 'Activities do not rebuild workflow ids: the workflow passes what they need in their input.' },
          ],
          paths: ['amqplib', 'kafkajs', '@nats-io/transport-node', '@nats-io/jetstream', '@redis/client', '@aws-sdk/client-sqs'].map((name) => ({ name, allowTypeImports: true, message: 'A broker client is loaded with import() where a delivery first needs it: a worker that only POSTs never loads it.' })),
        },
      ],
    },
  },
  {
    files: ['tools/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/test/**', '**/bench/**'], message: 'tools/ imports only src/ and stack/: what tests or the bench share goes into tools/, stack/ or src/.' },
            { regex: '(^|/)stack/harness/', message: 'tools/ does not import the bench and chaos harness.' },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/bench/**'], message: 'Tests do not import the benchmark: what the chaos run shares with it lives in stack/harness/.' }] },
      ],
    },
  },
  {
    files: ['bench/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/test/**'], message: 'The bench does not import tests: share through stack/ or tools/.' },
            {
              // The receiver-side signature check is a public surface; the rest goes through one module.
              regex: '^(\\.\\./)+((activities|workflows)/|src/(?!receiver/verify$))',
              message: 'The bench reaches the service through its public surfaces; database seeding and accounting go through stack/harness/service.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    // Domain modules know nothing of HTTP: they throw DomainError and take the contract's types from src/contract.
    files: ['src/subscriptions/**/*.ts', 'src/orders/**/*.ts', 'src/inventory/**/*.ts', 'src/deliveries/**/*.ts', 'src/portal/**/*.ts', 'src/webhooks/**/*.ts'],
    ignores: ['src/portal/ui/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/http', '**/http/*'], message: 'Domain modules must not import src/http: throw DomainError (src/errors), use src/contract for types.' },
            // A later block replaces the rule, so the one-way boundaries are repeated here.
            productBoundary,
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
      'src/deliveries/held.ts',
      'src/deliveries/inbox.ts',
      'src/events/dispatch-notes.ts',
      'src/events/ordering-marks.ts',
      'src/events/repository.ts',
      'src/idempotency/store.ts',
      'src/inventory/repository.ts',
      'src/portal/revocations.ts',
      'src/portal/service-keys.ts',
      'src/receiver/idempotency.ts',
      'src/orders/repository.ts',
      'src/orders/transition-claims.ts',
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
    files: ['src/**/*.ts', 'activities/**/*.ts', 'bench/**/*.ts', 'stack/**/*.ts', 'tools/**/*.ts'],
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
            productBoundary,
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
            productBoundary,
          ],
        },
      ],
    },
  },
);
