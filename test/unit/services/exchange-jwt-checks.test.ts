import { generateKeyPairSync } from 'node:crypto'
import { SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import type { ExchangeDto } from '../../../src-main/contract/exchange.ts'
import { fixedClock } from '../../../src-main/core/clock.ts'
import { ExchangeLog } from '../../../src-main/http/exchange-log.ts'
import type { ExchangeInput } from '../../../src-main/http/exchange-record.ts'
import { checkExchangeJwts, type JwtCheckSources } from '../../../src-main/services/exchange-jwt-checks.ts'
import { signDetachedJws } from '../../../src-main/signing/detached-jws.ts'
import { halfHash } from '../../../src-main/signing/id-token.ts'
import { ps256SigningKey, publicSigningJwk } from '../../../src-main/signing/signing-key.ts'

// Keys made at run time: the TPP's, the bank's and the directory's.
const pair = (kid: string) => ps256SigningKey(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey, kid)
const tpp = pair('tpp-1')
const bank = pair('bank-1')
const directory = pair('dir-1')
const t0 = 1_800_000_000
const ISSUER = 'https://as.bank'
const JWKS: Record<string, { keys: unknown[] }> = {
  'https://as.bank/jwks': { keys: [publicSigningJwk(bank)] },
  'https://dir/jwks': { keys: [publicSigningJwk(directory)] },
}
const sign = (claims: Record<string, unknown>, key = tpp, header: Record<string, unknown> = {}) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'PS256', kid: key.kid, ...header }).sign(key.key)
const exchange = (input: Partial<ExchangeInput> & Pick<ExchangeInput, 'request'>): ExchangeInput => ({
  startedAt: new Date(t0 * 1000),
  environmentId: 'env-1',
  timings: { connect: 0, tls: 0, firstByte: 1, total: 2 },
  reusedConnection: false,
  presentedCertificate: null,
  ...input,
})

function sources(x: ExchangeDto, extra: Partial<JwtCheckSources> = {}): JwtCheckSources {
  return {
    exchange: x,
    tpp: {
      kid: tpp.kid,
      publicJwk: publicSigningJwk(tpp) as Record<string, unknown>,
      orgId: 'org-1',
      softwareId: 'sw-1',
    },
    clientId: 'client-1',
    directoryJwksUrl: 'https://dir/jwks',
    earlierOfFlow: () => [],
    discovery: async () => ({
      issuer: ISSUER,
      jwks_uri: 'https://as.bank/jwks',
      token_endpoint: 'https://as.bank/token',
    }),
    fetchJwks: async ({ jwksUrl }) => {
      const jwks = JWKS[jwksUrl ?? '']
      if (!jwks) throw new Error(`no JWKS at ${jwksUrl}`)
      return jwks as never
    },
    clock: fixedClock((t0 + 7200) * 1000),
    ...extra,
  }
}

const failed = (checks: Array<{ name: string; pass: boolean }>) => checks.filter((c) => !c.pass).map((c) => c.name)

describe('checkExchangeJwts', () => {
  it("checks a token request's client assertion with the TPP key at the time of the exchange, and the ID token of the answer with the bank's JWKS", async () => {
    const log = new ExchangeLog()
    const requested = await sign({
      iss: 'client-1',
      aud: ISSUER,
      nonce: 'n-1',
      state: 's-1',
      claims: { id_token: { openbanking_intent_id: { value: 'aac-1' } } },
    })
    const authorise = log.record(
      exchange({
        request: { method: 'GET', url: `${ISSUER}/authorize?client_id=client-1&request=${requested}`, headers: [] },
        response: { status: 302, headers: [['location', 'https://tpp/cb#code=c-1&state=s-1']] },
      }),
    )
    const assertion = await sign({
      iss: 'client-1',
      sub: 'client-1',
      aud: `${ISSUER}/token`,
      jti: 'j-1',
      iat: t0,
      exp: t0 + 300,
    })
    const idToken = await sign(
      { iss: ISSUER, aud: 'client-1', nonce: 'n-1', iat: t0, exp: t0 + 600, openbanking_intent_id: 'aac-1' },
      bank,
    )
    const id = log.record(
      exchange({
        request: {
          method: 'POST',
          url: `${ISSUER}/token`,
          headers: [['content-type', 'application/x-www-form-urlencoded']],
          body: Buffer.from(`grant_type=authorization_code&code=c-1&client_assertion=${assertion}`),
        },
        response: {
          status: 200,
          headers: [['content-type', 'application/json']],
          body: Buffer.from(JSON.stringify({ access_token: 'opaque', id_token: idToken })),
        },
      }),
    )
    const reports = await checkExchangeJwts(
      sources(log.get(id, { raw: true }), { earlierOfFlow: () => [log.get(authorise, { raw: true })] }),
    )
    expect(reports.map((r) => [r.role, r.rules])).toEqual([
      ['client-assertion', 'client-assertion'],
      ['id-token', 'id-token'],
    ])
    const [ca, it2] = reports
    expect(ca!.keySource).toBe("the TPP's public signing key (kid tpp-1)")
    // Two hours later the assertion has long expired, but it was valid when it was sent.
    expect(failed(ca!.checks)).toEqual([])
    expect(ca!.checks[0]).toMatchObject({ name: 'signature', pass: true })
    expect(it2!.keySource).toBe("the bank's JWKS at https://as.bank/jwks")
    expect(failed(it2!.checks)).toEqual([])
    expect(it2!.checks.find((c) => c.name === 'nonce')).toMatchObject({ pass: true, expected: 'n-1' })
    expect(it2!.checks.find((c) => c.name === 'openbanking_intent_id')).toMatchObject({ pass: true })
  })

  it('checks the ID token of a redirect with the code and state beside it, and warns where the nonce is not in the log', async () => {
    const log = new ExchangeLog()
    const idToken = await sign(
      {
        iss: ISSUER,
        aud: 'client-1',
        nonce: 'n-9',
        iat: t0,
        exp: t0 + 600,
        c_hash: halfHash('c-1'),
        s_hash: halfHash('other'),
      },
      bank,
    )
    const id = log.record(
      exchange({
        request: { method: 'GET', url: `${ISSUER}/auth/resume`, headers: [] },
        response: { status: 303, headers: [['location', `https://tpp/cb#code=c-1&state=s-1&id_token=${idToken}`]] },
      }),
    )
    const [r] = await checkExchangeJwts(sources(log.get(id, { raw: true })))
    expect(r!.roleLabel).toMatch(/redirect back/)
    expect(failed(r!.checks)).toEqual(['s_hash'])
    expect(r!.checks.find((c) => c.name === 'c_hash')?.pass).toBe(true)
    expect(r!.checks.find((c) => c.name === 'nonce')).toMatchObject({
      pass: true,
      severity: 'warning',
      hint: expect.stringMatching(/not in the exchange log/),
    })
  })

  it('verifies both x-jws-signatures over the exact bodies, and fails one whose body was changed', async () => {
    const body = JSON.stringify({
      Data: { Initiation: { InstructedAmount: { Amount: '10.00', Currency: 'GBP' } } },
      Risk: {},
    })
    const answer = JSON.stringify({ Data: { ConsentId: 'pdc-1' } })
    const request = await signDetachedJws(body, { signer: tpp, orgId: 'org-1', softwareId: 'sw-1', now: t0 - 1 })
    const response = await signDetachedJws(answer, { signer: bank, orgId: 'bank-org', softwareId: 'x', now: t0 })
    const log = new ExchangeLog()
    const record = (sent: string) =>
      log.record(
        exchange({
          request: {
            method: 'POST',
            url: 'https://rs.bank/open-banking/v4.0/pisp/domestic-payment-consents',
            headers: [
              ['content-type', 'application/json'],
              ['x-jws-signature', request],
            ],
            body: Buffer.from(sent),
          },
          response: {
            status: 201,
            headers: [
              ['content-type', 'application/json'],
              ['x-jws-signature', response],
            ],
            body: Buffer.from(answer),
          },
        }),
      )
    const good = await checkExchangeJwts(sources(log.get(record(body), { raw: true })))
    expect(good.map((r) => r.role)).toEqual(['tpp-jws-signature', 'bank-jws-signature'])
    expect(good.map((r) => failed(r.checks))).toEqual([[], []])
    expect(good[0]!.checks.find((c) => c.name === 'http://openbanking.org.uk/iss')).toMatchObject({
      expected: 'org-1/sw-1',
      pass: true,
    })
    const changed = await checkExchangeJwts(sources(log.get(record(body.replace('10.00', '99.00')), { raw: true })))
    expect(failed(changed[0]!.checks)).toEqual(['signature'])
    expect(failed(changed[1]!.checks)).toEqual([])
  })

  it("checks a registration's software statement against the directory's JWKS, and says so when that JWKS is not known", async () => {
    const ssa = await sign(
      {
        iss: 'Local directory',
        iat: t0 - 60,
        software_id: 'sw-1',
        org_id: 'org-1',
        software_roles: ['AISP'],
        software_redirect_uris: ['https://tpp/cb'],
      },
      directory,
    )
    const reg = await sign(
      { iss: 'sw-1', aud: ISSUER, iat: t0, exp: t0 + 3600, jti: 'r-1', software_statement: ssa },
      tpp,
      { typ: 'JWT' },
    )
    const log = new ExchangeLog()
    const id = log.record(
      exchange({
        request: {
          method: 'POST',
          url: `${ISSUER}/dynamic-client-registration/v3.2/register`,
          headers: [['content-type', 'application/jwt']],
          body: Buffer.from(reg),
        },
        response: { status: 201, headers: [], body: Buffer.from('{}') },
      }),
    )
    const [registration, statement] = await checkExchangeJwts(sources(log.get(id, { raw: true })))
    expect(registration).toMatchObject({
      role: 'registration',
      rules: 'registration',
      keySource: "the TPP's public signing key (kid tpp-1)",
    })
    expect(registration!.checks[0]).toMatchObject({ name: 'signature', pass: true })
    expect(statement).toMatchObject({
      role: 'software-statement',
      location: 'request body › software_statement',
      keySource: "the directory's JWKS at https://dir/jwks",
    })
    expect(failed(statement!.checks)).toEqual([])
    const [, unknownDirectory] = await checkExchangeJwts(
      sources(log.get(id, { raw: true }), { directoryJwksUrl: undefined }),
    )
    expect(unknownDirectory!.checks[0]).toMatchObject({
      name: 'signature',
      pass: true,
      severity: 'warning',
      actual: 'not verified here',
    })
  })

  it('reports per JWT what kept it from being checked, and checks the others', async () => {
    const assertion = await sign({
      iss: 'client-1',
      sub: 'client-1',
      aud: `${ISSUER}/token`,
      jti: 'j',
      iat: t0,
      exp: t0 + 60,
    })
    const idToken = await sign({ iss: ISSUER, aud: 'client-1', nonce: 'n', iat: t0, exp: t0 + 60 }, bank)
    const log = new ExchangeLog()
    const id = log.record(
      exchange({
        request: {
          method: 'POST',
          url: `${ISSUER}/token`,
          headers: [['content-type', 'application/x-www-form-urlencoded']],
          body: Buffer.from(`client_assertion=${assertion}`),
        },
        response: {
          status: 200,
          headers: [['content-type', 'application/json']],
          body: Buffer.from(JSON.stringify({ id_token: idToken })),
        },
      }),
    )
    const reports = await checkExchangeJwts(
      sources(log.get(id, { raw: true }), {
        tpp: undefined,
        discovery: async () => {
          throw new Error('bank unreachable')
        },
      }),
    )
    expect(reports[0]!.error).toMatchObject({ code: 'NOT_FOUND', cause: expect.stringMatching(/no signing key/) })
    expect(reports[1]!.error).toMatchObject({ code: 'INTERNAL', cause: 'bank unreachable' })
  })
})
