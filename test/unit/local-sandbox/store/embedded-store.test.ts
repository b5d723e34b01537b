import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { EmbeddedStore } from '../../../../src-main/local-sandbox/store/embedded-store.ts'
import { conformanceContract } from './conformance-contract.ts'
import { faultRulesContract } from './fault-rules-contract.ts'
import { oidcModelsContract } from './oidc-models-contract.ts'
import { sandboxStoreContract } from './sandbox-store-contract.ts'

const dirs: string[] = []
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), 'ob-embedded-store-'))
  dirs.push(dir)
  return { state: join(dir, 'state'), auth: join(dir, 'auth') }
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const openEmbedded = async () => {
  const paths = fresh()
  return { store: new EmbeddedStore(paths), reopen: async () => new EmbeddedStore(paths), shared: false }
}
sandboxStoreContract('embedded', openEmbedded)
oidcModelsContract('embedded', openEmbedded)
faultRulesContract('embedded', openEmbedded)
conformanceContract('embedded', openEmbedded)

describe('EmbeddedStore files', () => {
  it('keeps the data directory layout the sandbox always wrote (state/ and auth/)', async () => {
    const paths = fresh()
    const store = new EmbeddedStore(paths)
    await store.advanceClock(5000)
    await store.claimRegistrationJti('soft', 'j', 2_000_000_000, 1)
    expect(JSON.parse(readFileSync(join(paths.state, 'clock.json'), 'utf8'))).toEqual({ offsetMs: 5000 })
    expect(readFileSync(join(paths.auth, 'registration-jti.journal.jsonl'), 'utf8')).toContain('"j":2000000000')
  })
})
