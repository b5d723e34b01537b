#!/usr/bin/env node
// Finds the Chromium the end-to-end tests drive (Debian's; Playwright never downloads a browser here),
// or says exactly how to get one.
import { accessSync, constants } from 'node:fs'

const candidates = [
  process.env.CHROMIUM_PATH,
  '/usr/bin/chromium',
  '/usr/lib/chromium/chromium',
  '/usr/bin/chromium-browser',
].filter(Boolean)
const found = candidates.find((path) => {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
})
if (!found) {
  process.stderr.write(
    'No Chromium for the end-to-end tests (looked at ' +
      candidates.join(', ') +
      ').\n' +
      "Install Debian's: sudo apt-get update && sudo apt-get install -y chromium\n" +
      'or point CHROMIUM_PATH at a Chromium or Chrome binary. (Do not run "npx playwright install": no browser downloads.)\n',
  )
  process.exit(1)
}
if (!process.env.CHROMIUM_PATH) process.stdout.write(`Chromium: ${found}\n`)
