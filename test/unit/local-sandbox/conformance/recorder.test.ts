import { afterAll } from 'vitest'
import { conformanceContract } from '../store/conformance-contract.ts'
import { EmbeddedStore } from '../../../../src-main/local-sandbox/store/embedded-store.ts'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// The recorder over the records in memory (the embedded backend's); the same suite runs on PostgreSQL
// from test/unit/local-sandbox/store/postgres-store.test.ts.
const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

conformanceContract('memory', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ob-recorder-'))
  dirs.push(dir)
  return {
    store: new EmbeddedStore({ state: join(dir, 'state'), auth: join(dir, 'auth') }),
    reopen: async () => {
      throw new Error('not shared')
    },
    shared: false,
  }
})
