import { defineConfig } from 'vitest/config'

/** Integration files that replace a module with vi.mock: they need a module graph of their own. */
const MOCKING = [
  'test/integration/local-sandbox/auth/authorisation-flows.test.ts',
  'test/integration/local-sandbox/auth/registration.test.ts',
]
/**
 * Unit files that need a module graph of their own: the renderer's (one zustand store per module graph, a DOM
 * per file), the Electron shell's (mocked electron), those that mock modules, timers or globals, and the answer
 * shapes' (it sets where the steps' validators come from, and counts the shapes the steps' modules make).
 */
const UNIT_ISOLATED = [
  'test/unit/services/answer-shape-validators.test.ts',
  'test/unit/src-renderer/**',
  'test/unit/shell/**',
  'test/unit/local-sandbox/auth/token-verifier.test.ts',
  'test/unit/local-sandbox/auth/storage.test.ts',
  'test/unit/local-sandbox/directory/tpp-store.test.ts',
]

/**
 * Files that start sandbox processes on PostgreSQL whatever OB_TEST_STORE says: the run with
 * OB_TEST_STORE=postgres (npm run test:integration:postgres) leaves them to the first run.
 */
const ALWAYS_POSTGRES = ['test/integration/local-sandbox/store/**', 'test/integration/cluster/**']

/** What every project shares (the global setup is the root's, run once). */
const common = {
  environment: 'node',
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks',
} as const

export default defineConfig({
  test: {
    // Builds out/cli first: the tests that spawn bin/ob-console.js run the built command line.
    globalSetup: ['test/support/build-cli.ts'],
    // Two cores on CI: integration suites start real TLS servers; keep parallelism bounded.
    maxWorkers: 2,
    projects: [
      {
        test: { ...common, name: 'unit', include: ['test/unit/**/*.test.ts'], exclude: UNIT_ISOLATED, isolate: false },
      },
      {
        test: {
          ...common,
          name: 'unit-isolated',
          include: UNIT_ISOLATED.map((g) => (g.endsWith('**') ? `${g}/*.test.ts` : g)),
        },
      },
      // The integration files share each worker's module graph (no per-file re-import of the console and the
      // sandbox: about a quarter of the suite's time); each starts its own servers and data directories.
      {
        test: {
          ...common,
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: [...MOCKING, ...(process.env.OB_TEST_STORE === 'postgres' ? ALWAYS_POSTGRES : [])],
          isolate: false,
        },
      },
      { test: { ...common, name: 'integration-mocks', include: MOCKING } },
    ],
  },
})
