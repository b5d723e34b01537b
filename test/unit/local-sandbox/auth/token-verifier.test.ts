import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AdapterPayload } from 'oidc-provider'
import type Provider from 'oidc-provider'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SandboxClock } from '../../../../src-main/local-sandbox/clock.ts'
import { SandboxOidcStorage } from '../../../../src-main/local-sandbox/auth/provider/oidc-adapter.ts'
import { TokenVerifier } from '../../../../src-main/local-sandbox/auth/token-verifier.ts'
import { EmbeddedOidcModels } from '../../../../src-main/local-sandbox/store/embedded-oidc-models.ts'

let dir: string
let storage: SandboxOidcStorage
let clock: SandboxClock
let finds: number
let verifier: TokenVerifier

/** oidc-provider's models as far as the verifier uses them, over the same storage. */
function providerOver(s: SandboxOidcStorage): Provider {
  const model = (name: string) => ({
    async find(id: string) {
      finds++
      const payload = await s.adapter(name).find(id)
      return payload && { ...payload, destroy: () => s.adapter(name).destroy(id) }
    },
  })
  return {
    AccessToken: model('AccessToken'),
    ClientCredentials: model('ClientCredentials'),
    Client: model('Client'),
    Grant: model('Grant'),
  } as unknown as Provider
}

const wall = () => Math.floor(Date.now() / 1000)

async function issue(id: string, payload: AdapterPayload, model = 'AccessToken'): Promise<void> {
  await storage.adapter(model).upsert(id, { iat: wall(), exp: wall() + 3600, ...payload }, 3600)
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ob-token-verifier-'))
  storage = new SandboxOidcStorage(new EmbeddedOidcModels(dir))
  clock = new SandboxClock()
  finds = 0
  verifier = new TokenVerifier(providerOver(storage), clock, storage)
  await storage.adapter('Client').upsert('c1', { client_id: 'c1' }, 0)
  await storage.adapter('Grant').upsert('g1', { clientId: 'c1' }, 3600)
  await issue('at1', {
    clientId: 'c1',
    grantId: 'g1',
    scope: 'openid accounts',
    accountId: 'aac-1',
    extra: { sandbox_exp: clock.nowSeconds() + 3600, openbanking_intent_id: 'aac-1' },
    'x5t#S256': 'thumb',
  })
  await issue(
    'cc1',
    { clientId: 'c1', scope: 'accounts', extra: { sandbox_exp: clock.nowSeconds() + 3600 } },
    'ClientCredentials',
  )
})
afterEach(() => {
  vi.useRealTimers()
  rmSync(dir, { recursive: true, force: true })
})

describe('TokenVerifier', () => {
  it('checks a token in full once, then answers the same facts from what it remembered', async () => {
    const first = await verifier.verify('at1')
    expect(first).toEqual({
      clientId: 'c1',
      grant: 'authorization_code',
      scopes: ['openid', 'accounts'],
      consentId: 'aac-1',
      certificateThumbprint: 'thumb',
      expiresAt: expect.any(Number),
    })
    const afterFirst = finds
    expect(await verifier.verify('at1')).toBe(first)
    expect(finds).toBe(afterFirst)
    expect(await verifier.verify('cc1')).toMatchObject({ grant: 'client_credentials', scopes: ['accounts'] })
    expect(await verifier.verify('nope')).toBeUndefined()
    expect(Object.isFrozen(first)).toBe(true)
  })

  it('refuses a remembered token once it is revoked, destroyed with its grant or its client, or replaced', async () => {
    await verifier.verify('at1')
    await verifier.verify('cc1')
    await storage.adapter('AccessToken').revokeByGrantId('g1')
    expect(await verifier.verify('at1')).toBeUndefined()

    await storage.destroyClientArtifacts('c1')
    expect(await verifier.verify('cc1')).toBeUndefined()

    await issue(
      'cc2',
      { clientId: 'c1', scope: 'payments', extra: { sandbox_exp: clock.nowSeconds() + 3600 } },
      'ClientCredentials',
    )
    expect((await verifier.verify('cc2'))?.scopes).toEqual(['payments'])
    await issue(
      'cc2',
      { clientId: 'c1', scope: 'accounts', extra: { sandbox_exp: clock.nowSeconds() + 3600 } },
      'ClientCredentials',
    )
    expect((await verifier.verify('cc2'))?.scopes).toEqual(['accounts'])

    await verifier.revoke('cc2')
    expect(await verifier.verify('cc2')).toBeUndefined()
  })

  it('refuses a remembered token whose client was deleted or whose grant changed hands', async () => {
    await verifier.verify('at1')
    await storage.adapter('Grant').upsert('g1', { clientId: 'someone-else' }, 3600)
    expect(await verifier.verify('at1')).toBeUndefined()
    await storage.adapter('Grant').upsert('g1', { clientId: 'c1' }, 3600)
    expect(await verifier.verify('at1')).toBeDefined()
    await storage.adapter('Client').destroy('c1')
    expect(await verifier.verify('at1')).toBeUndefined()
  })

  it('refuses a remembered token past its sandbox expiry (clock moved) and past its wall-clock expiry', async () => {
    expect(await verifier.verify('at1')).toBeDefined()
    await clock.advance(3600_000)
    expect(await verifier.verify('at1')).toBeUndefined()

    const later = new TokenVerifier(providerOver(storage), new SandboxClock(), storage)
    expect(await later.verify('cc1')).toBeDefined()
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 3601_000)
    expect(await later.verify('cc1')).toBeUndefined()
  })
})
