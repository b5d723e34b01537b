/**
 * The conformance recorder records behind the answers; stopping the sandbox waits for what it answered to be
 * recorded before the store goes (on a shared store, a restart would otherwise lose the last batch). A store
 * whose record updates take a second shows it: the answer comes before its record, the stop after it.
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { EmbeddedStore } from '../../../../src-main/local-sandbox/store/embedded-store.ts'
import type { SandboxStore } from '../../../../src-main/local-sandbox/store/sandbox-store.ts'
import { startTestSandbox } from '../support/sandbox-fixture.ts'

/** `target` with `replace`'s members in place of its own, its other methods bound to it (private fields work). */
function withMembers<T extends object>(target: T, replace: Record<string, unknown>): T {
  return new Proxy(target, {
    get(t, key) {
      if (typeof key === 'string' && key in replace) return replace[key]
      const value = Reflect.get(t, key) as unknown
      return typeof value === 'function' ? value.bind(t) : value
    },
  })
}

it('stopping the sandbox waits for the requests it answered to be recorded', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ob-recorder-stop-'))
  const inner = new EmbeddedStore({ state: join(dir, 'state'), auth: join(dir, 'auth') })
  let recorded = 0
  const slowUpdate: SandboxStore['conformance']['updateRecord'] = async (...args) => {
    await new Promise((resolve) => setTimeout(resolve, 1000))
    await inner.conformance.updateRecord(...args)
    recorded++
  }
  const store = withMembers(inner, { conformance: withMembers(inner.conformance, { updateRecord: slowUpdate }) })
  const env = await startTestSandbox({ store })
  try {
    const tpp = await env.onboard({ roles: ['AISP'] })
    const client = await tpp.register({ overrides: { scope: 'openid accounts' } })
    const token = await tpp.clientCredentials(client, 'accounts')
    const res = await tpp.call('POST', `${env.sandbox.baseUrl}/open-banking/v4.0/aisp/account-access-consents`, {
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'x-fapi-interaction-id': randomUUID(),
      },
      body: JSON.stringify({ Data: { Permissions: ['ReadAccountsBasic'] }, Risk: {} }),
    })
    expect(res.status, res.text).toBe(201)
    expect(recorded).toBe(0) // the answer did not wait for its record
  } finally {
    await env.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  expect(recorded).toBe(1) // the stop did
})
