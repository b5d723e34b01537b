#!/usr/bin/env node
// Before the end-to-end tests: finds a browser (scripts/browser.mjs); where none is found, installs
// Playwright's Chromium (`npx playwright install chromium`); where that cannot download either, stops with
// one sentence naming the three ways to get a browser. OB_NO_BROWSER_INSTALL=1 skips the install attempt.
import { spawnSync } from 'node:child_process'
import { findBrowser, NO_BROWSER } from './browser.mjs'

let found = await findBrowser()
if (!found && process.env.CHROMIUM_PATH) {
  process.stderr.write(
    `CHROMIUM_PATH is ${process.env.CHROMIUM_PATH}, which is not an executable file. ${NO_BROWSER}\n`,
  )
  process.exit(1)
}
if (!found && process.env.OB_NO_BROWSER_INSTALL !== '1') {
  process.stdout.write(
    "No Chrome, Chromium or Edge found: installing Playwright's Chromium (npx playwright install chromium)\n",
  )
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'
  const run = spawnSync(npx, ['playwright', 'install', 'chromium'], { stdio: 'inherit', timeout: 15 * 60_000 })
  if (run.status === 0) found = await findBrowser()
}
if (!found) {
  process.stderr.write(`${NO_BROWSER}\n`)
  process.exit(1)
}
process.stdout.write(`Browser for the end-to-end tests: ${found.source}\n`)
