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

describe("the handler table's first pass: every input checked against the contract", () => {
  /** A table whose handlers record what reached them. */
  function recording() {
    const seen: unknown[] = []
    const answer = async (input: unknown) => (seen.push(input), { ok: true, value: 'ran' })
    const handlers = {
      'tpps.save': answer,
      'flows.runStep': answer,
      'exchanges.list': answer,
      'flows.list': answer,
      'exchanges.clear': answer,
      'registration.preview': answer,
    } as unknown as ContractHandlers
    return { h: guarded(handlers), seen }
  }
  type Failed = { ok: false; error: { code: string; what: string; cause: string; fix: string } }

  it('passes an input that fits, as it came', async () => {
    const { h, seen } = recording()
    const input = { name: 'Acme', redirectUris: ['https://acme.example/cb'] }
    expect(await h['tpps.save'](input)).toEqual({ ok: true, value: 'ran' })
    expect(seen).toEqual([input])
  })

  it('refuses a wrong type, a missing field and an unknown field, naming each, without running the handler', async () => {
    const { h, seen } = recording()
    const r = (await h['flows.runStep']({ flowId: 42, extra: true } as never)) as Failed
    expect(r.ok).toBe(false)
    expect(r.error.code).toBe('INVALID_INPUT')
    expect(r.error.what).toBe('The call flows.runStep got an input that does not fit its contract.')
    expect(r.error.cause).toContain("(input) must have required property 'stepId'")
    expect(r.error.cause).toContain('/flowId must be string')
    expect(r.error.cause).toContain('a property the contract does not name: "extra"')
    expect(r.error.fix).toContain('src-main/contract/api.ts')
    expect(seen).toEqual([])
  })

  it('checks nested forms field by field (a registration form with a number for a list)', async () => {
    const { h, seen } = recording()
    const r = (await h['registration.preview']({
      environmentId: 'e',
      tppId: 't',
      form: { grantTypes: 'client_credentials' },
    } as never)) as Failed
    expect(r.error.cause).toBe('/form/grantTypes must be array.')
    expect(seen).toEqual([])
  })

  it('names the problems of the branch the input meant, for a union told apart by kind (AIS or PIS flow)', async () => {
    const h = guarded({ 'flows.start': async () => ({ ok: true, value: 'ran' }) } as unknown as ContractHandlers)
    const pis = {
      kind: 'pis',
      environmentId: 'e',
      clientId: 'c',
      initiation: {},
      risk: {},
      capture: 'headless',
      authorisationUrlFrom: 'request-object',
    }
    expect((await h['flows.start'](pis as never)).ok).toBe(true)
    const r = (await h['flows.start']({ ...pis, tppId: 't', capture: 'fax' } as never)) as Failed
    expect(r.error.cause).toBe(
      '(input) has a property the contract does not name: "tppId"; /capture must be one of headless, loopback, auth-window, deeplink, pasted.',
    )
  })

  it('takes an absent input as {} where every field is optional, and as nothing for a call without input', async () => {
    const { h, seen } = recording()
    expect((await h['exchanges.list'](undefined as never)).ok).toBe(true)
    expect((await h['flows.list'](null as never)).ok).toBe(true)
    expect((await h['exchanges.clear'](null as never)).ok).toBe(true)
    expect(seen).toEqual([{}, {}, undefined])
    const r = (await h['tpps.save'](undefined as never)) as Failed
    expect(r.error.what).toBe('The call tpps.save got no input.')
    expect(r.error.cause).toContain("must have required property 'name'")
  })
})
