import { describe, expect, it } from 'vitest'
import { isAppError, type AppError } from '../../../../src-main/core/app-error.ts'
import type { Discovery } from '../../../../src-main/flows/common/discovery.ts'
import { advertised, refreshTokens, tokenRequest } from '../../../../src-main/flows/common/tokens.ts'
import type { FlowContext } from '../../../../src-main/flows/flow-context.ts'

const DISCOVERY: Discovery = {
  issuer: 'https://auth.bank.example',
  authorization_endpoint: 'https://auth.bank.example/auth',
  token_endpoint: 'https://auth.bank.example/token',
  jwks_uri: 'https://auth.bank.example/jwks',
  grant_types_supported: ['authorization_code', 'client_credentials'],
  token_endpoint_auth_methods_supported: ['private_key_jwt', 'client_secret_basic'],
}

/** A flow context whose HTTP port records the token requests and answers a token response. */
function context(authMethod: FlowContext['client']['authMethod']) {
  const sent: Array<{ headers: Record<string, string>; body: string }> = []
  const ctx = {
    client: {
      clientId: 'client-1',
      authMethod,
      secret: 's3cret',
      redirectUri: 'https://tpp/cb',
      orgId: 'o',
      softwareId: 'sw',
    },
    signer: { clientAssertion: async () => 'h.p.s' },
    http: {
      send: async (req: { headers: Record<string, string>; body: string }) => {
        sent.push(req)
        const json = { access_token: 'at-2', token_type: 'Bearer', expires_in: 3600 }
        return {
          status: 200,
          headers: { 'content-type': 'application/json' },
          text: JSON.stringify(json),
          json,
          exchangeId: `x${sent.length}`,
          ms: 1,
        }
      },
    },
  } as unknown as FlowContext
  return { ctx, sent }
}

async function refusal(p: Promise<unknown>): Promise<AppError> {
  try {
    await p
  } catch (err) {
    if (isAppError(err)) return err
    throw err
  }
  throw new Error('expected a refusal')
}

describe('token requests: grants and client authentication as discovery advertises them', () => {
  it('reads what discovery advertises, with the OpenID defaults where it is silent', () => {
    expect(advertised(DISCOVERY)).toEqual({
      grants: ['authorization_code', 'client_credentials'],
      authMethods: ['private_key_jwt', 'client_secret_basic'],
    })
    expect(
      advertised({ ...DISCOVERY, grant_types_supported: undefined, token_endpoint_auth_methods_supported: undefined }),
    ).toEqual({ grants: ['authorization_code', 'implicit'], authMethods: ['client_secret_basic'] })
  })

  it('tls_client_auth: the client id in the form and no assertion or secret, where discovery lists it', async () => {
    const { ctx, sent } = context('tls_client_auth')
    await tokenRequest(
      ctx,
      { ...DISCOVERY, token_endpoint_auth_methods_supported: ['private_key_jwt', 'tls_client_auth'] },
      { grant_type: 'client_credentials', scope: 'accounts' },
      'token',
    )
    const form = new URLSearchParams(sent[0]!.body)
    expect(Object.fromEntries(form)).toEqual({
      grant_type: 'client_credentials',
      scope: 'accounts',
      client_id: 'client-1',
    })
    expect(sent[0]!.headers.authorization).toBeUndefined()
  })

  it('tls_client_auth where discovery does not list it: refused before anything is sent, naming discovery', async () => {
    const { ctx, sent } = context('tls_client_auth')
    const e = await refusal(
      tokenRequest(ctx, DISCOVERY, { grant_type: 'client_credentials', scope: 'accounts' }, 'token'),
    )
    expect(e.code).toBe('NOT_ADVERTISED')
    expect(e.cause).toContain('token_endpoint_auth_methods_supported ["private_key_jwt","client_secret_basic"]')
    expect(e.cause).toContain('/.well-known/openid-configuration')
    expect(sent).toEqual([])
  })

  it('refresh_token where discovery lists it: the grant with the refresh token; a token not rotated is kept', async () => {
    const { ctx, sent } = context('private_key_jwt')
    const out = await refreshTokens(
      ctx,
      { ...DISCOVERY, grant_types_supported: ['authorization_code', 'client_credentials', 'refresh_token'] },
      { accessToken: 'at-1', tokenType: 'Bearer', refreshToken: 'rt-1' },
    )
    const form = new URLSearchParams(sent[0]!.body)
    expect(form.get('grant_type')).toBe('refresh_token')
    expect(form.get('refresh_token')).toBe('rt-1')
    expect(form.get('client_assertion')).toBe('h.p.s')
    expect(out.tokens).toMatchObject({ accessToken: 'at-2', refreshToken: 'rt-1' })
    expect(out.exchangeId).toBe('x1')
  })

  it('refresh_token where discovery does not list it (or is silent): refused, and the way on is to authorise again', async () => {
    const { ctx, sent } = context('private_key_jwt')
    const listed = await refusal(
      refreshTokens(ctx, DISCOVERY, { accessToken: 'at-1', tokenType: 'Bearer', refreshToken: 'rt-1' }),
    )
    expect(listed.code).toBe('NOT_ADVERTISED')
    expect(listed.fix).toContain('authorise again')
    const silent = await refusal(
      refreshTokens(
        ctx,
        { ...DISCOVERY, grant_types_supported: undefined },
        { accessToken: 'at-1', tokenType: 'Bearer', refreshToken: 'rt-1' },
      ),
    )
    expect(silent.cause).toContain('has no grant_types_supported')
    expect(sent).toEqual([])
  })

  it('a grant the flows always used is sent when discovery is silent, refused when its list leaves it out', async () => {
    const { ctx, sent } = context('client_secret_basic')
    await tokenRequest(
      ctx,
      { ...DISCOVERY, grant_types_supported: undefined },
      { grant_type: 'client_credentials', scope: 'accounts' },
      'token',
    )
    expect(sent[0]!.headers.authorization).toMatch(/^Basic /)
    const e = await refusal(
      tokenRequest(
        ctx,
        { ...DISCOVERY, grant_types_supported: ['authorization_code'] },
        { grant_type: 'client_credentials', scope: 'accounts' },
        'token',
      ),
    )
    expect(e.code).toBe('NOT_ADVERTISED')
  })
})
