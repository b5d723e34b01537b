import { defineConfig } from '@playwright/test'
import { findBrowser } from './scripts/browser.mjs'

/** $CHROMIUM_PATH, Playwright's installed Chromium, or the system's Chrome, Chromium or Edge (scripts/browser.mjs). */
const browser = await findBrowser()

/**
 * End-to-end journeys of the console in Chromium, against the real web host, services and embedded local
 * sandbox that each test starts (test/e2e/fixtures.ts). `npm run test:e2e` first finds a browser (or installs
 * Playwright's, or says how to get one: scripts/find-chromium.js).
 */
export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  // Two shared cores: every test runs its own console and sandbox, one at a time (two at a time took 4 minutes
  // instead of 5, but a PSU login in a browser tab once timed out while another test started beside it).
  workers: 1,
  fullyParallel: false,
  timeout: 180_000,
  expect: { timeout: 20_000 },
  retries: 0,
  reporter: [['list']],
  use: {
    headless: true,
    ignoreHTTPSErrors: true, // the local sandbox's PSU pages use a CA made on this machine
    viewport: { width: 1440, height: 1000 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    actionTimeout: 20_000,
    launchOptions: {
      executablePath: browser?.executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
        '--disable-quic',
        '--disable-dev-shm-usage',
      ],
    },
  },
})
