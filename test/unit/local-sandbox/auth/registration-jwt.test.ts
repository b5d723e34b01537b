import { CompactSign, exportJWK, generateKeyPair, type CryptoKey } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  SoftwareStatementError,
  type Directory,
  type SoftwareStatementClaims,
  type SoftwareStatementRecord,
} from '../../../../src-main/local-sandbox/directory/types.ts'
import { sandboxDiscovery } from '../../../../src-main/local-sandbox/auth/discovery.ts'
import { RegistrationError } from '../../../../src-main/local-sandbox/auth/registration/registration-error.ts'
import {
  decodeRegistrationJwt,
  registrationJwtFromBody,
  verifyRegistrationSignature,
  verifySoftwareStatement,
} from '../../../../src-main/local-sandbox/auth/registration/registration-jwt.ts'
import {
  buildClientMetadata,
  registrationResponse,
} from '../../../../src-main/local-sandbox/auth/registration/registration-record.ts'
import { validateRegistrationClaims } from '../../../../src-main/local-sandbox/auth/registration/registration-rules.ts'
import { refusal as refused } from './support/registration-claims.ts'

let privateKey: CryptoKey
let software: SoftwareStatementRecord
const ssaClaims = {
  iss: 'Test Directory',
  iat: 1,
  jti: 'ssa-jti',
  software_id: 'SoftwareIdForUnitTest0',
  software_client_name: 'Unit TPP',
  software_roles: ['AISP'],
  software_redirect_uris: ['https://tpp.example/cb'],
  org_id: '0015800001UNITTEST',
  org_name: 'Unit Org',
} as unknown as SoftwareStatementClaims

/** A small in-test directory: it knows one software and accepts one SSA string. */
const directory: Pick<Directory, 'verifySoftwareStatement'> = {
  async verifySoftwareStatement(ssa) {
    if (ssa === 'good.ssa.jwt') return ssaClaims
    throw new SoftwareStatementError('unapproved_software_statement', 'organisation revoked')
  },
}

beforeAll(async () => {
  const pair = await generateKeyPair('PS256', { extractable: true })
  privateKey = pair.privateKey
  software = {
    orgId: ssaClaims.org_id,
    orgName: 'Unit Org',
    orgStatus: 'Active',
    softwareId: ssaClaims.software_id,
    clientName: 'Unit TPP',
    roles: ['AISP'],
    redirectUris: ['https://tpp.example/cb'],
    jwksEndpoint: 'https://dir.example/jwks',
    jwks: { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'kid-1', alg: 'PS256', use: 'sig' }] },
    transportCertificateThumbprints: [],
    createdAt: '2026-01-01T00:00:00Z',
  }
})

const sign = (claims: object, kid = 'kid-1', key?: CryptoKey) =>
  new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
    .setProtectedHeader({ alg: 'PS256', kid, typ: 'JWT' })
    .sign(key ?? privateKey)

describe('the registration body', () => {
  it('takes the JWT raw (jwt, jose) or as a JSON string (json)', () => {
    expect(registrationJwtFromBody(Buffer.from(' a.b.c\n'), 'application/jwt')).toBe('a.b.c')
    expect(registrationJwtFromBody(Buffer.from('a.b.c'), 'application/jose; charset=utf-8')).toBe('a.b.c')
    expect(registrationJwtFromBody(Buffer.from('"a.b.c"'), 'application/json')).toBe('a.b.c')
    expect(registrationJwtFromBody(Buffer.from('a.b.c'), 'application/json')).toBe('a.b.c')
  })
  it('refuses other content types, empty bodies and non-JWTs, naming what it found', () => {
    expect(
      refused(() => registrationJwtFromBody(Buffer.from('a.b.c'), 'application/x-www-form-urlencoded')).message,
    ).toMatch(/Content-Type is "application\/x-www-form-urlencoded"/)
    expect(refused(() => registrationJwtFromBody(Buffer.from('a.b.c'), undefined)).message).toMatch(
      /Content-Type is ""/,
    )
    expect(refused(() => registrationJwtFromBody(Buffer.from(''), 'application/jwt')).message).toMatch(/empty/)
    expect(refused(() => registrationJwtFromBody(Buffer.from('{"a":1}'), 'application/json')).message).toMatch(
      /not a compact JWT/,
    )
    expect(refused(() => registrationJwtFromBody(Buffer.from('"unterminated'), 'application/json')).message).toMatch(
      /not a JSON string/,
    )
  })
  it('decodes a PS256 JWT with a kid; refuses none, no kid and garbage', async () => {
    const jwt = await sign({ iss: 'x' })
    expect(decodeRegistrationJwt(jwt).claims).toEqual({ iss: 'x' })
    const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url')
    expect(refused(() => decodeRegistrationJwt(`${enc({ alg: 'none' })}.${enc({})}.`)).message).toMatch(/alg is "none"/)
    expect(refused(() => decodeRegistrationJwt(`${enc({ alg: 'PS256' })}.${enc({})}.sig`)).message).toMatch(
      /kid absent/,
    )
    expect(
      refused(() => decodeRegistrationJwt(`${enc({ alg: 'PS256', kid: 'k', typ: 'JOSE' })}.${enc({})}.sig`)).message,
    ).toMatch(/typ is "JOSE"/)
    expect(refused(() => decodeRegistrationJwt('x.y.z')).message).toMatch(/cannot be decoded/)
  })
})

describe('signature and software statement', () => {
  it('verifies with the software key named by kid; refuses another key and an unknown kid', async () => {
    const jwt = await sign({ iss: 'x' })
    await expect(verifyRegistrationSignature(jwt, { alg: 'PS256', kid: 'kid-1' }, software)).resolves.toBeUndefined()
    const other = (await generateKeyPair('PS256')).privateKey
    const forged = await sign({ iss: 'x' }, 'kid-1', other)
    await expect(verifyRegistrationSignature(forged, { alg: 'PS256', kid: 'kid-1' }, software)).rejects.toThrow(
      /signature does not verify/,
    )
    await expect(verifyRegistrationSignature(jwt, { alg: 'PS256', kid: 'kid-2' }, software)).rejects.toThrow(
      /kid "kid-2" is not in the software's JWKS/,
    )
  })
  it("maps the directory's refusal to the DCR code", async () => {
    await expect(verifySoftwareStatement(directory as Directory, { software_statement: 'good.ssa.jwt' })).resolves.toBe(
      ssaClaims,
    )
    const err = await verifySoftwareStatement(directory as Directory, { software_statement: 'bad.ssa.jwt' }).catch(
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(RegistrationError)
    expect(err).toMatchObject({ error: 'unapproved_software_statement', message: 'organisation revoked' })
  })
})

describe('registration record and response', () => {
  it('stores what oidc-provider needs and answers the DCR 3.2 shape with the SSA flattened', () => {
    const now = 1_800_000_000
    const claims = {
      iss: ssaClaims.software_id,
      aud: 'https://as',
      iat: now,
      exp: now + 3600,
      jti: '7d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      token_endpoint_auth_signing_alg: 'PS256',
      grant_types: ['authorization_code', 'client_credentials'],
      subject_type: 'public',
      application_type: 'mobile',
      redirect_uris: ['https://tpp.example/cb'],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: 'openid accounts',
      request_object_signing_alg: 'none',
      response_types: ['code id_token'],
      id_token_signed_response_alg: 'PS256',
      software_statement: 'good.ssa.jwt',
    }
    const registration = validateRegistrationClaims(claims, { authUrl: 'https://as', nowSeconds: now, ssa: ssaClaims })
    const metadata = buildClientMetadata(
      { clientId: 'cid', clientIdIssuedAt: now },
      registration,
      ssaClaims,
      software,
      'thumb',
    )
    expect(metadata).toMatchObject({
      client_id: 'cid',
      application_type: 'web',
      token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['authorization_code', 'client_credentials', 'refresh_token'],
      tls_client_certificate_bound_access_tokens: true,
    })
    expect(metadata.request_object_signing_alg).toBeUndefined()
    expect(metadata.client_secret).toMatch(/^[A-Za-z0-9_-]{32}$/)
    const body = registrationResponse(metadata)
    expect(body).toMatchObject({
      client_id: 'cid',
      client_secret_expires_at: 0,
      application_type: 'mobile',
      grant_types: ['authorization_code', 'client_credentials'],
      request_object_signing_alg: 'none',
      sandbox_profile: 'permissive',
      org_id: ssaClaims.org_id,
      software_client_name: 'Unit TPP',
    })
    expect(body.iss).toBeUndefined()
    expect(body.jti).toBeUndefined()
  })

  it('discovery: the token endpoint on {auth_url}, registration on {base_url}, none request objects, OB claims', () => {
    const d = sandboxDiscovery(
      { claims_supported: ['sub', 'iss'], token_endpoint: 'https://as/token' },
      { baseUrl: 'https://rs', authUrl: 'https://as', directoryUrl: 'https://dir' },
    )
    expect(d).toMatchObject({
      token_endpoint: 'https://as/token',
      registration_endpoint: 'https://rs/dynamic-client-registration/v3.2/register',
      request_object_signing_alg_values_supported: ['PS256', 'none'],
    })
    expect(d.claims_supported).toEqual(['sub', 'iss', 'openbanking_intent_id', 'acr'])
  })
})
