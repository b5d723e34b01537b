import { describe, expect, it } from 'vitest'
import { createAppStore } from '../../../../src-renderer/store/store.ts'
import { prerequisitesKey } from '../../../../src-renderer/store/tpp-tools-slice.ts'
import { fail, fakeApi } from '../support/fake-api.ts'
import { localEnv, tpp } from '../support/fixtures.ts'

const keys = {
  tppId: 'tpp-1',
  subjectDn: 'CN=sw-1,OU=0015800001041RHAAY,O=OpenBanking,C=GB',
  transport: { csrPem: 'csr', certificatePem: 'cert', waitsForCertificate: false },
  jwks: { keys: [{ kty: 'RSA', n: 'n', e: 'AQAB', use: 'tls' }] },
}

describe('TPP tools slice', () => {
  it('keeps one checklist per identity and environment, and an error under the same key', async () => {
    const passing = [{ name: 'ok', pass: true, expected: 'x', actual: 'x' }]
    const api = fakeApi({
      'prerequisites.check': ({ environmentId }: { environmentId: string }) =>
        environmentId === 'bank' ? fail('NOT_FOUND') : passing,
    })
    const store = createAppStore(api)
    await store.getState().checkAll({ tppId: 'tpp-1', environmentId: 'local-sandbox' })
    await store.getState().checkAll({ tppId: 'tpp-1', environmentId: 'bank', directoryJwks: 'https://dir/jwks' })
    expect(store.getState().checklists[prerequisitesKey('tpp-1', 'local-sandbox')]).toHaveLength(1)
    expect(store.getState().checklists[prerequisitesKey('tpp-1', 'bank')]).toBeUndefined()
    expect(store.getState().ops[`prerequisites.check:${prerequisitesKey('tpp-1', 'bank')}`]?.error?.code).toBe(
      'NOT_FOUND',
    )
    expect(api.callsOf('prerequisites.check')[1]).toEqual({
      tppId: 'tpp-1',
      environmentId: 'bank',
      directoryJwks: 'https://dir/jwks',
    })
  })

  it('opens the prerequisites on an identity: its environment picked, the check started', async () => {
    const api = fakeApi({
      'environments.list': () => [{ ...localEnv, tppId: 'tpp-1' }],
      'prerequisites.check': () => [],
    })
    const store = createAppStore(api)
    await store.getState().loadEnvironments()
    store.getState().openPrerequisites('tpp-1')
    expect(store.getState().view).toBe('prerequisites')
    expect(store.getState().prerequisitesTarget).toEqual({ tppId: 'tpp-1', environmentId: 'local-sandbox' })
    expect(api.callsOf('prerequisites.check')).toEqual([{ tppId: 'tpp-1', environmentId: 'local-sandbox' }])
  })

  it('generation keeps the public parts and the certificate as read, then reloads the identities; a refusal keeps nothing', async () => {
    let refuse = false
    const api = fakeApi({
      'certificates.generate': () => (refuse ? fail('INVALID_INPUT') : keys),
      'certificates.inspect': ({ pem }: { pem: string }) => [{ subjectDn: `read ${pem}` }],
      'tpps.list': () => [tpp],
    })
    const store = createAppStore(api)
    await store.getState().generateKeys({
      orgId: '0015800001041RHAAY',
      softwareId: 'sw-1',
      keyType: 'RSA-2048',
      roles: ['transport'],
      selfSigned: true,
    })
    expect(store.getState().generated?.keys).toEqual(keys)
    expect(store.getState().generated?.certificate).toEqual({ subjectDn: 'read cert' })
    expect(store.getState().tpps).toEqual([tpp])
    refuse = true
    await store.getState().generateKeys({ orgId: 'x', softwareId: 'sw-1', keyType: 'RSA-2048', roles: ['transport'] })
    expect(store.getState().generated).toBeUndefined()
    expect(store.getState().ops['certificates.generate']?.error?.code).toBe('INVALID_INPUT')
  })

  it("a Postman import reloads environments and clients and marks the file's client current", async () => {
    const env = { ...localEnv, id: 'pm', name: 'PM', kind: 'bank-sandbox' as const, builtIn: false }
    const api = fakeApi({
      'environments.importPostman': () => ({ environment: env, clientId: 'c-1', notes: [] }),
      'environments.list': () => [env],
      'clients.list': () => [],
      'o3.postmanEnvironment': () => ({ environment: { values: [] }, exchangeId: 'x' }),
    })
    const store = createAppStore(api)
    const done = await store.getState().importPostman({ json: '{}', tppId: 'tpp-1' })
    expect(done?.clientId).toBe('c-1')
    expect(store.getState().environments).toEqual([env])
    expect(store.getState().currentClients).toEqual({ pm: 'c-1' })
    expect(await store.getState().fetchPostmanEnvironment('c-1')).toEqual({ ok: true, value: { values: [] } })
  })
})
