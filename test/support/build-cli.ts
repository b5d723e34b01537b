import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'

/**
 * Vitest global setup: builds out/cli from the current sources before any test runs, so the tests that
 * spawn `bin/ob-console.js` run what the sources say (the bin runs the built command line).
 */
export default function setup(): void {
  execFileSync(process.execPath, [resolve(import.meta.dirname, '../../scripts/build-cli.mjs')], { stdio: 'inherit' })
}
