import 'reflect-metadata'
import { CompactSign, generateKeyPair } from 'jose'
import { Agent } from 'undici'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  certToPem,
  createRootCa,
  issueCertificate,
  privateKeyToPem,
  x509,
} from '../../../../src-main/local-sandbox/pki/certificate-factory.ts'
import { startTestSandbox, type TestSandbox } from '../support/sandbox-fixture.ts'
import type { HttpResponse, TestTpp } from '../support/test-tpp.ts'

let env: TestSandbox
let tpp: TestTpp
let aisOnly: TestTpp
let other: TestTpp

beforeAll(async () => {
  env = await startTestSandbox()
  ;[tpp, aisOnly, other] = await Promise.all([
    env.onboard({ roles: ['AISP', 'PISP'] }),
    env.onboard({ roles: ['AISP'] }),
    env.onboard(),
  ])
})
afterAll(async () => {
  await env?.stop()
})
// After every bad input the server still serves: discovery answers and a valid registration succeeds.
afterEach(async () => {
  const discovery = await tpp.call('GET', `${env.sandbox.authUrl}/.well-known/openid-configuration`, { mtls: false })
  expect(discovery.status).toBe(200)
})

function expectError(res: HttpResponse, status: number, error: string, mentions?: string | RegExp): void {
  expect(res.status, res.text).toBe(status)
  expect(res.json?.error, res.text).toBe(error)
  expect(typeof res.json?.error_description).toBe('string')
  if (mentions) expect(res.json.error_description).toMatch(mentions)
}

const now = () => Math.floor(Date.now() / 1000)

describe('registration claims, one wrong at a time (HTTP 400 with the DCR error code)', () => {
  const cases: Array<[string, () => Record<string, unknown>, string, string | RegExp]> = [
    [
      'iss is not the software id',
      () => ({ iss: 'SomeOtherSoftware' }),
      'invalid_client_metadata',
      /iss is "SomeOtherSoftware"; expected the software statement's software_id/,
    ],
    [
      'aud is the organisation id (the OB reading)',
      () => ({ aud: tpp.kit.orgId }),
      'invalid_client_metadata',
      /aud is .*organisation id/,
    ],
    [
      'aud has a trailing slash',
      () => ({ aud: `${env.sandbox.authUrl}/` }),
      'invalid_client_metadata',
      /no trailing slash/,
    ],
    ['aud is missing', () => ({ aud: undefined }), 'invalid_client_metadata', /no aud claim/],
    ['the JWT has expired', () => ({ iat: now() - 7200, exp: now() - 3600 }), 'invalid_client_metadata', /expired/],
    [
      'iat is in the future',
      () => ({ iat: now() + 600, exp: now() + 4200 }),
      'invalid_client_metadata',
      /in the future/,
    ],
    ['exp is a day after iat', () => ({ exp: now() + 86400 }), 'invalid_client_metadata', /exp - iat/],
    ['iat is a string', () => ({ iat: 'yesterday' }), 'invalid_client_metadata', /iat is "yesterday"/],
    ['jti is missing', () => ({ jti: undefined }), 'invalid_client_metadata', /no jti claim/],
    ['jti is not a UUID', () => ({ jti: 'registration-0001' }), 'invalid_client_metadata', /expected a UUID/],
    [
      'a strict client with application_type mobile',
      () => ({ sandbox_profile: 'strict', application_type: 'mobile' }),
      'invalid_client_metadata',
      /application_type is "mobile"/,
    ],
    [
      'token_endpoint_auth_signing_alg is RS256',
      () => ({ token_endpoint_auth_signing_alg: 'RS256' }),
      'invalid_client_metadata',
      /token_endpoint_auth_signing_alg is "RS256"; expected "PS256"/,
    ],
    [
      'grant_types lacks client_credentials',
      () => ({ grant_types: ['authorization_code'] }),
      'invalid_client_metadata',
      /lacks client_credentials/,
    ],
    [
      'grant_types includes implicit',
      () => ({ grant_types: ['authorization_code', 'client_credentials', 'implicit'] }),
      'invalid_client_metadata',
      /implicit/,
    ],
    [
      'subject_type is pairwise',
      () => ({ subject_type: 'pairwise' }),
      'invalid_client_metadata',
      /subject_type is "pairwise"/,
    ],
    [
      'application_type is native',
      () => ({ application_type: 'native' }),
      'invalid_client_metadata',
      /application_type is "native"/,
    ],
    [
      'a redirect URI the software statement does not hold',
      () => ({ redirect_uris: ['https://evil.example/callback'] }),
      'invalid_redirect_uri',
      /not one of the software statement's software_redirect_uris/,
    ],
    ['redirect_uris is empty', () => ({ redirect_uris: [] }), 'invalid_redirect_uri', /non-empty/],
    [
      'token_endpoint_auth_method is tls_client_auth',
      () => ({ token_endpoint_auth_method: 'tls_client_auth' }),
      'invalid_client_metadata',
      /tls_client_auth/,
    ],
    [
      'scope has an unknown value',
      () => ({ scope: 'openid accounts fundsconfirmations' }),
      'invalid_client_metadata',
      /fundsconfirmations/,
    ],
    ['scope lacks openid', () => ({ scope: 'accounts' }), 'invalid_client_metadata', /without openid/],
    [
      'request_object_signing_alg is RS256',
      () => ({ request_object_signing_alg: 'RS256' }),
      'invalid_client_metadata',
      /request_object_signing_alg is "RS256"/,
    ],
    [
      'response_types are id_token and token',
      () => ({ response_types: ['id_token', 'token'] }),
      'invalid_client_metadata',
      /response_types contains/,
    ],
    [
      'id_token_signed_response_alg is RS256',
      () => ({ id_token_signed_response_alg: 'RS256' }),
      'invalid_client_metadata',
      /id_token_signed_response_alg/,
    ],
    [
      'software_statement is missing',
      () => ({ software_statement: undefined }),
      'invalid_software_statement',
      /no software_statement claim/,
    ],
    [
      'software_statement is tampered with',
      () => ({ software_statement: tamper(tpp.kit.ssa) }),
      'invalid_software_statement',
      /software_statement/,
    ],
    [
      'software_id differs from the software statement',
      () => ({ software_id: 'AnotherSoftwareId' }),
      'invalid_client_metadata',
      /software_id/,
    ],
    [
      'the strict profile with client_secret_basic',
      () => ({ sandbox_profile: 'strict', token_endpoint_auth_method: 'client_secret_basic' }),
      'invalid_client_metadata',
      /strict client authenticates with private_key_jwt only/,
    ],
    [
      'the strict profile with unsigned request objects',
      () => ({ sandbox_profile: 'strict-headless', request_object_signing_alg: 'none' }),
      'invalid_client_metadata',
      /signs its request objects with PS256/,
    ],
    [
      'an unknown sandbox_profile',
      () => ({ sandbox_profile: 'relaxed' }),
      'invalid_client_metadata',
      /sandbox_profile is "relaxed"/,
    ],
  ]
  it.each(cases)('%s', async (_name, overrides, error, mentions) => {
    const res = await tpp.postRegistration(await tpp.signRegistration(tpp.registrationClaims(overrides())))
    expectError(res, 400, error, mentions)
  })
})

function tamper(jwt: string): string {
  const [h, p, s] = jwt.split('.')
  const claims = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>
  claims.software_roles = ['AISP', 'PISP', 'CBPII']
  return `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${s}`
}

describe('the registration request itself', () => {
  it('an unsigned registration JWT (alg none) is refused', async () => {
    const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url')
    const res = await tpp.postRegistration(`${enc({ alg: 'none', typ: 'JWT' })}.${enc(tpp.registrationClaims())}.`)
    expectError(res, 400, 'invalid_client_metadata', /header alg is "none"; expected "PS256"/)
  })

  it("a JWT signed by another key under the software's kid is refused", async () => {
    const { privateKey } = await generateKeyPair('PS256')
    const res = await tpp.postRegistration(await tpp.signRegistration(tpp.registrationClaims(), { key: privateKey }))
    expectError(res, 400, 'invalid_client_metadata', /signature does not verify/)
  })

  it("a kid that is not in the software's JWKS is refused", async () => {
    const res = await tpp.postRegistration(await tpp.signRegistration(tpp.registrationClaims(), { kid: 'unknown-kid' }))
    expectError(res, 400, 'invalid_client_metadata', /kid "unknown-kid" is not in the software's JWKS/)
  })

  it('a wrong content type is refused, naming it', async () => {
    const res = await tpp.postRegistration(await tpp.signRegistration(tpp.registrationClaims()), 'text/plain')
    expectError(res, 400, 'invalid_client_metadata', /Content-Type is "text\/plain"/)
  })

  it('a body that is not a JWT is refused', async () => {
    const res = await tpp.postRegistration(JSON.stringify({ redirect_uris: ['https://x'] }), 'application/json')
    expectError(res, 400, 'invalid_client_metadata', /not a compact JWT/)
  })

  it('a replayed jti is refused', async () => {
    const jwt = await tpp.signRegistration(tpp.registrationClaims())
    expect((await tpp.postRegistration(jwt)).status).toBe(201)
    expectError(await tpp.postRegistration(jwt), 400, 'invalid_client_metadata', /jti .* was already used/)
  })

  it('payments scope for software without the PISP role is refused', async () => {
    const res = await aisOnly.postRegistration(
      await aisOnly.signRegistration(aisOnly.registrationClaims({ scope: 'openid accounts payments' })),
    )
    expectError(res, 400, 'invalid_client_metadata', /payments needs the PISP role/)
  })

  it("another organisation's transport certificate is unapproved_software_statement, naming both organisations", async () => {
    const res = await tpp.postRegistration(await tpp.signRegistration(tpp.registrationClaims()), 'application/jwt', {
      agent: other.agent,
    })
    expectError(res, 400, 'unapproved_software_statement', new RegExp(`${other.kit.orgId}.*${tpp.kit.orgId}`))
  })

  it('GET on the registration endpoint is 405', async () => {
    const res = await tpp.call('GET', await tpp.registrationEndpoint())
    expectError(res, 405, 'invalid_request', /allowed: POST/)
  })
})

describe('mutual TLS on {base_url}', () => {
  it('no client certificate: 401 invalid_client with the sentence that explains it', async () => {
    const res = await tpp.postRegistration(await tpp.signRegistration(tpp.registrationClaims()), 'application/jwt', {
      mtls: false,
    })
    expectError(res, 401, 'invalid_client', /no client certificate was presented/)
    const token = await tpp.call('POST', await tpp.tokenEndpoint(), {
      mtls: false,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    })
    expectError(token, 401, 'invalid_client', /no client certificate/)
  })

  it('a certificate from another CA, with the right subject: 401 invalid_client', async () => {
    const nowDate = new Date()
    const ca = await createRootCa({ name: [{ CN: ['Throwaway Test CA'] }], pathLength: 0, now: nowDate, validDays: 2 })
    const leaf = await issueCertificate(ca, {
      subject: [{ C: ['GB'] }, { O: ['Impostor'] }, { OU: [tpp.kit.orgId] }, { CN: [tpp.kit.softwareId] }],
      validDays: 2,
      now: nowDate,
      extendedKeyUsages: [x509.ExtendedKeyUsage.clientAuth],
    })
    const agent = new Agent({
      connect: {
        ca: env.sandbox.caBundlePem,
        cert: certToPem(leaf.cert),
        key: await privateKeyToPem(leaf.keys.privateKey),
      },
      connections: 1,
    })
    try {
      const res = await tpp.postRegistration(await tpp.signRegistration(tpp.registrationClaims()), 'application/jwt', {
        agent,
      })
      expectError(res, 401, 'invalid_client', /not issued by the local sandbox's issuing CA/)
    } finally {
      await agent.close()
    }
  })
})

describe('signature helper sanity', () => {
  it('the test signs with the software key the directory published (a control for the cases above)', async () => {
    const jwt = await new CompactSign(new TextEncoder().encode(JSON.stringify(tpp.registrationClaims())))
      .setProtectedHeader({ alg: 'PS256', kid: tpp.kit.signingKid })
      .sign(await tpp.signingKey())
    expect((await tpp.postRegistration(jwt)).status).toBe(201)
  })
})
