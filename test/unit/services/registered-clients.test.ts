import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { EnvironmentDto } from '../../../src-main/contract/environments.ts'
import { fixedClock } from '../../../src-main/core/clock.ts'
import { createFileClientStore } from '../../../src-main/services/persistence/client-store.ts'
import { RegisteredClients } from '../../../src-main/services/registered-clients.ts'
import { removeTempStores, tempTppsService } from './support/temp-stores.ts'

afterAll(removeTempStores)

const env = { id: 'bank' } as EnvironmentDto

function setUp() {
  const { tpps, dir, secrets } = tempTppsService('clients-')
  const tokens: string[] = []
  const clients = new RegisteredClients(
    createFileClientStore(join(dir, 'clients')),
    secrets,
    tpps,
    async (clientId) => {
      tokens.push(clientId)
      return `cc-token-of-${clientId}`
    },
    fixedClock(Date.parse('2026-01-01T00:00:00Z')),
  )
  const tpp = tpps.save({ name: 'Budget app', redirectUris: ['https://app.example/cb'] })
  return { clients, secrets, tpp, tokens }
}

describe('RegisteredClients', () => {
  it("keeps the bank's answer with its secret and registration access token encrypted, never in the record", async () => {
    const { clients, secrets, tpp } = setUp()
    const dto = await clients.save(env, tpp.id, {
      client_id: 'client/1',
      client_secret: 's3cret',
      registration_access_token: 'rat-1',
      token_endpoint_auth_method: 'client_secret_basic',
      scope: 'openid accounts',
      redirect_uris: ['https://app.example/cb'],
    })
    expect(dto).toMatchObject({
      clientId: 'client/1',
      environmentId: 'bank',
      tppId: tpp.id,
      authMethod: 'client_secret_basic',
      scope: 'openid accounts',
      hasSecret: true,
      registeredAt: '2026-01-01T00:00:00.000Z',
    })
    expect(JSON.stringify(clients.record('client/1'))).not.toMatch(/s3cret|rat-1/)
    expect(dto.registration).toMatchObject({
      client_secret: '(stored encrypted)',
      registration_access_token: '(stored encrypted)',
    })
    expect(await clients.secret('client/1')).toBe('s3cret')
    expect(await secrets.list()).toEqual(
      expect.arrayContaining(['client-secret-client_1', 'registration-access-token-client_1']),
    )
    // An answer with another auth method is kept as private_key_jwt; an answer without a secret keeps the one held.
    const again = await clients.save(env, tpp.id, { client_id: 'client/1', token_endpoint_auth_method: 'none' })
    expect(again).toMatchObject({ authMethod: 'private_key_jwt', hasSecret: true, redirectUris: [] })
  })

  it('manages a client with its registration access token, else with a client-credentials token', async () => {
    const { clients, tpp, tokens } = setUp()
    await clients.save(env, tpp.id, { client_id: 'with-rat', registration_access_token: 'rat-1' })
    await clients.save(env, tpp.id, { client_id: 'without' })
    expect(await clients.managementToken('with-rat')).toBe('rat-1')
    expect(await clients.managementToken('without')).toBe('cc-token-of-without')
    expect(tokens).toEqual(['without'])
  })

  it('adopts a client registered elsewhere, with the identity’s redirect URIs, and refuses it for a second environment', async () => {
    const { clients, tpp } = setUp()
    const adopted = await clients.adopt({
      clientId: 'elsewhere',
      environmentId: 'bank',
      tppId: tpp.id,
      authMethod: 'client_secret_basic',
      secret: 'given',
    })
    expect(adopted).toMatchObject({ redirectUris: ['https://app.example/cb'], registration: {}, hasSecret: true })
    expect(await clients.secret('elsewhere')).toBe('given')
    await expect(
      clients.adopt({ clientId: 'elsewhere', environmentId: 'other', tppId: tpp.id, authMethod: 'private_key_jwt' }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/another environment \(bank\)/) })
  })

  it('lists by environment, names an unknown client, and forgets a deleted one with its secrets', async () => {
    const { clients, secrets, tpp } = setUp()
    await clients.save(env, tpp.id, { client_id: 'a', client_secret: 'x', registration_access_token: 'y' })
    await clients.save({ id: 'other' } as EnvironmentDto, tpp.id, { client_id: 'b' })
    expect(clients.list('bank').map((c) => c.clientId)).toEqual(['a'])
    expect(
      clients
        .list()
        .map((c) => c.clientId)
        .sort(),
    ).toEqual(['a', 'b'])
    await clients.forget(clients.record('a'))
    expect(() => clients.record('a')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }))
    expect((await secrets.list()).filter((id) => id.endsWith('-a'))).toEqual([])
  })
})
