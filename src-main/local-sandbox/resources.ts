import { existsSync } from 'node:fs'
import { resolve } from 'node:path'

/**
 * The one place the sandbox finds the repository's `resources/`: its seed data (`resources/local-sandbox/`:
 * the PSUs, the products, the PostgreSQL migrations) and the official v4.0 OpenAPI files (`resources/openapi/`).
 *
 * The root holding `resources/` is two folders up from this module wherever it runs: from the sources
 * (`src-main/local-sandbox/resources.ts`, which the tests and `OB_CONSOLE_FROM_SOURCE=1` run), from the bundled
 * command line (`out/cli/commands.cjs`, whose `import.meta.dirname` scripts/build-cli.mjs sets to its folder) and from the
 * desktop app's main process (`out/main/<chunk>.js`, in the package too, where `resources/` sits beside
 * `out/`); three from a chunk the desktop build puts in a subfolder of `out/main/`. The first of the two that
 * holds the seed data is taken (else the first, so a missing file's error names the expected place).
 */
const CANDIDATES = [resolve(import.meta.dirname, '../../resources'), resolve(import.meta.dirname, '../../../resources')]

export const RESOURCES_DIR =
  CANDIDATES.find((dir) => existsSync(resolve(dir, 'local-sandbox', 'psus.json'))) ?? CANDIDATES[0]!

/** The sandbox's seed data: `resources/local-sandbox/`. */
export const SEED_DIR = resolve(RESOURCES_DIR, 'local-sandbox')

/** The official Open Banking v4.0 AIS and PIS schemas: `resources/openapi/`. */
export const OPENAPI_DIR = resolve(RESOURCES_DIR, 'openapi')

/** A file of the seed data, e.g. `seedFile('psus.json')`. */
export const seedFile = (...parts: string[]): string => resolve(SEED_DIR, ...parts)
