import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    // Builds out/cli first: the tests that spawn bin/ob-console.js run the built command line.
    globalSetup: ['test/support/build-cli.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores on CI: integration suites start real TLS servers; keep parallelism bounded.
    maxWorkers: 2,
  },
})
