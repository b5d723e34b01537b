import { describe, expect, it } from 'vitest'
import { claimChangeLines, claimsChangedByBank } from '../../../src-main/services/registration-diff.ts'

describe('claims the bank changed or dropped', () => {
  const sent = {
    iss: 'software-1',
    aud: 'https://auth.example',
    iat: 1,
    exp: 2,
    jti: 'j',
    software_statement: 'e.y.z',
    client_name: 'My renamed app',
    scope: 'openid accounts payments',
    redirect_uris: ['https://a.example/cb', 'https://b.example/cb'],
    grant_types: ['client_credentials', 'authorization_code'],
    token_endpoint_auth_method: 'private_key_jwt',
    request_object_signing_alg: 'PS256',
  }

  it('names nothing when the bank registered what was sent (sets and scopes in any order)', () => {
    const registered = {
      client_id: 'c1',
      ...sent,
      scope: 'payments openid accounts',
      grant_types: ['authorization_code', 'client_credentials'],
      redirect_uris: ['https://b.example/cb', 'https://a.example/cb'],
    }
    expect(claimsChangedByBank(sent, registered)).toEqual([])
  })

  it('names a claim registered otherwise, one dropped, and a narrowed scope; never the JWT envelope', () => {
    const registered = {
      client_id: 'c1',
      client_name: 'Name from the SSA',
      scope: 'openid accounts',
      redirect_uris: ['https://a.example/cb', 'https://b.example/cb'],
      grant_types: ['client_credentials', 'authorization_code'],
      token_endpoint_auth_method: 'private_key_jwt',
    }
    const changes = claimsChangedByBank(sent, registered)
    expect(changes).toEqual([
      { claim: 'client_name', sent: 'My renamed app', registered: 'Name from the SSA' },
      { claim: 'scope', sent: 'openid accounts payments', registered: 'openid accounts' },
      { claim: 'request_object_signing_alg', sent: 'PS256' },
    ])
    expect(claimChangeLines(changes)).toEqual([
      'client_name: sent "My renamed app"; the bank registered "Name from the SSA"',
      'scope: sent "openid accounts payments"; the bank registered "openid accounts"',
      'request_object_signing_alg: sent "PS256"; the bank did not register it',
    ])
  })
})
