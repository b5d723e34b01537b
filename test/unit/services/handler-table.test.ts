import { generateKeyPairSync } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { ContractHandlers } from '../../../src-main/contract/api.ts'
import { PRIVATE_KEY_REMOVED } from '../../../src-main/core/redact.ts'
import { FULLY_MASKED } from '../../../src-main/core/secret-mask.ts'
import { guarded } from '../../../src-main/services/handler-table.ts'

const token = 'registration-access-token-0123456789abcdef'
const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
  format: 'pem',
  type: 'pkcs8',
}) as string

/** A table of two calls, answering what a careless service might. */
function table(answer: unknown, error?: { code: string; what: string; cause: string; fix: string }): ContractHandlers {
  return {
    'clients.list': async () => (error ? { ok: false, error } : { ok: true, value: answer }),
    'exchanges.get': async () => ({ ok: true, value: answer }),
  } as unknown as ContractHandlers
}

describe("the handler table's last pass (guarded)", () => {
  it('masks tokens and removes keys in any answer, by name and by content', async () => {
    const h = guarded(
      table([
        {
          clientId: 'c1',
          registration: { registration_access_token: token, client_secret: '(stored encrypted)', note: `key ${pem}` },
        },
      ]),
    )
    const r = (await h['clients.list']({})) as { ok: true; value: Array<{ registration: Record<string, string> }> }
    expect(r.value[0]!.registration).toEqual({
      registration_access_token: `${token.slice(0, 8)}…${token.slice(-8)}`,
      client_secret: '(stored encrypted)',
      note: `key ${PRIVATE_KEY_REMOVED}\n`,
    })
  })

  it('masks what an error quotes', async () => {
    const h = guarded(
      table(undefined, {
        code: 'HTTP_ERROR',
        what: 'The directory answered 500.',
        cause: `{"access_token":"${token}","k":"${pem.replace(/\n/g, '\\n')}"}`,
        fix: 'Bearer abc',
      }),
    )
    const r = (await h['clients.list']({})) as { ok: false; error: { cause: string; fix: string } }
    expect(r.error.cause).not.toContain(token)
    expect(r.error.cause).not.toMatch(/PRIVATE KEY|MIG/)
    expect(r.error.fix).toBe(`Bearer ${FULLY_MASKED}`)
  })

  it('leaves the answers masked at their source as they are (their list of secrets and revealed items stay)', async () => {
    const view = { id: 'x', secrets: [], request: { headers: [['authorization', `Bearer ${token}`]] } }
    const h = guarded(table(view))
    expect(await h['exchanges.get']({ id: 'x' })).toEqual({ ok: true, value: view })
  })
})
