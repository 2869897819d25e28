import { defineConfig } from 'vitest/config';

/**
 * Three projects: 'unit' (engine kernels, importer, package, API through inject; Node; SQLite), 'api-pg'
 * (the API tests again on a throwaway PostgreSQL cluster, tests/support/pgGlobalSetup.ts) and 'browser'
 * (Chromium through playwright-core against a real server; one file at a time).
 */
export default defineConfig({
  test: {
    reporters: ['default', './tests/support/summaryReporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/**/*.test.ts'],
          exclude: ['tests/browser/**', 'node_modules/**'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'api-pg',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/pgGlobalSetup.ts'],
          setupFiles: ['tests/support/pgSetup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 240_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
