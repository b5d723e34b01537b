import { generateKeyPair } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { consentBody, paymentBody } from './support/pis-bodies.ts'
import type { CallOptions, PisClient } from './support/pis-client.ts'
import { startPisHarness, type PisHarness } from './support/pis-harness.ts'
import { verifyResponseSignature } from './support/verify-response.ts'

const IAT = 'http://openbanking.org.uk/iat'
const ISS = 'http://openbanking.org.uk/iss'
const TAN = 'http://openbanking.org.uk/tan'

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url')

describe('x-jws-signature on PIS requests', () => {
  let h: PisHarness
  let tpp: PisClient
  let other: PisClient
  const body = JSON.stringify(consentBody())

  beforeAll(async () => {
    h = await startPisHarness()
    tpp = await h.onboard()
    other = await h.onboard()
  })
  afterAll(async () => h?.stop())

  async function expectRefused(opts: CallOptions, code: string, messagePart: string | RegExp): Promise<void> {
    const res = await tpp.createConsent(opts.body ?? body, opts)
    expect(res.status, res.text).toBe(400)
    expect(res.json.Errors.map((e: { ErrorCode: string }) => e.ErrorCode)).toContain(code)
    const errs = res.json.Errors.filter((e: { ErrorCode: string; Message: string }) => e.ErrorCode === code)
    expect(
      errs.some((e: { Message: string }) => new RegExp(messagePart).test(e.Message)),
      res.text,
    ).toBe(true)
    for (const e of res.json.Errors) expect(e.Path).toBe('x-jws-signature')
    // Error bodies are signed too, and nothing was created.
    await verifyResponseSignature(res, h.context.signingKey.publicJwks)
  }

  it('accepts a valid signature (typ and cty optional) and refuses each failure with its own code', async () => {
    expect((await tpp.createConsent(body)).status).toBe(201)
    expect((await tpp.createConsent(body, { sign: { header: { typ: undefined, cty: undefined } } })).status).toBe(201)
    expect((await tpp.createConsent(body, { sign: { header: { cty: 'json' } } })).status).toBe(201)
  })

  it('U019 when the header is missing or empty', async () => {
    await expectRefused({ signature: false }, 'U019', /x-jws-signature header is missing/)
    await expectRefused({ signature: '' }, 'U019', /missing/)
  })

  it('U018 when it is not a detached JWS', async () => {
    const good = await tpp.sign(body)
    const [h64, , s64] = good.split('.')
    await expectRefused({ signature: `${h64}.${s64}` }, 'U018', /2 dot-separated part/)
    await expectRefused(
      { signature: `${h64}.${Buffer.from(body).toString('base64url')}.${s64}` },
      'U018',
      /payload part .* must be empty/,
    )
    await expectRefused({ signature: `${h64}..` }, 'U018', /signature part .* not base64url/)
    await expectRefused({ signature: `a+b/c==..${s64}` }, 'U018', /header part .* not base64url/)
    await expectRefused(
      { signature: `${Buffer.from('not json').toString('base64url')}..${s64}` },
      'U018',
      /does not decode to JSON/,
    )
    await expectRefused({ signature: `${b64([1, 2])}..${s64}` }, 'U018', /not an object/)
  })

  it('U017 for each missing required claim', async () => {
    for (const claim of ['kid', IAT, ISS, TAN, 'crit']) {
      await expectRefused(
        { sign: { header: { [claim]: undefined } } },
        'U017',
        new RegExp(`no "${claim.replace(/[/.]/g, '\\$&')}" claim`),
      )
    }
  })

  it('U017 when alg is missing', async () => {
    await expectRefused({ sign: { header: { alg: undefined } } }, 'U017', /no "alg" claim/)
  })

  it('U016 for each claim with a wrong value', async () => {
    const { privateKey: rsKey } = await generateKeyPair('RS256')
    await expectRefused(
      { sign: { header: { alg: 'RS256' }, key: rsKey } },
      'U016',
      /"alg" is "RS256"; Open Banking requires "PS256"/,
    )
    await expectRefused({ sign: { header: { typ: 'JWT' } } }, 'U016', /"typ" is "JWT"; when present it must be "JOSE"/)
    await expectRefused({ sign: { header: { cty: 'text/plain' } } }, 'U016', /"cty" is "text\/plain"/)
    await expectRefused(
      { sign: { header: { [ISS]: `${other.id.orgId}/${other.id.softwareId}` } } },
      'U016',
      new RegExp(`it must be "${tpp.id.orgId}/${tpp.id.softwareId}"`),
    )
    await expectRefused({ sign: { header: { [ISS]: tpp.id.softwareId } } }, 'U016', /\{org_id\}\/\{software_id\}/)
    await expectRefused({ sign: { header: { [TAN]: 'example.com' } } }, 'U016', /trusts only "openbanking.org.uk"/)
    await expectRefused({ sign: { header: { [IAT]: Math.floor(Date.now() / 1000) + 3600 } } }, 'U016', /in the future/)
    await expectRefused({ sign: { header: { [IAT]: String(Math.floor(Date.now() / 1000)) } } }, 'U016', /JSON number/)
    await expectRefused({ sign: { header: { crit: [IAT, ISS] } } }, 'U016', /"crit" is .* must be exactly/)
    await expectRefused({ sign: { header: { crit: [IAT, ISS, TAN, 'exp'], exp: 1 } } }, 'U016', /"crit"/)
    await expectRefused(
      { sign: { header: { b64: false, crit: ['b64', IAT, ISS, TAN] } } },
      'U016',
      /forbids the b64 claim/,
    )
    await expectRefused(
      { sign: { header: { jku: 'https://evil.example/jwks' } } },
      'U016',
      /"jku", which v4.0 does not allow/,
    )
  })

  it("U015 for an unknown kid, a key that is not the TPP's, a tampered body, and a body re-serialised after signing", async () => {
    await expectRefused(
      { sign: { header: { kid: 'not-a-kid' } } },
      'U015',
      /kid "not-a-kid" is not on the software statement's JWKS/,
    )
    // Another TPP's key with this TPP's kid: the signature does not verify.
    await expectRefused({ sign: { key: other.id.privateKey } }, 'U015', /does not verify/)
    await expectRefused(
      { sign: { signedBody: body.replace('12.50', '99.99') } },
      'U015',
      /does not verify .* over the exact request body/,
    )
    await expectRefused({ sign: { signedBody: JSON.stringify(JSON.parse(body), null, 2) } }, 'U015', /does not verify/)
    // A kid from another software statement is not looked up there.
    await expectRefused(
      { sign: { header: { kid: other.id.kid }, key: other.id.privateKey } },
      'U015',
      /not on the software statement's JWKS/,
    )
  })

  it('U015 when the directory no longer knows the software statement', async () => {
    const gone = await h.onboard()
    h.software.delete(gone.id.softwareId)
    const res = await gone.createConsent(body)
    expect(res.status).toBe(400)
    expect(res.json.Errors[0].ErrorCode).toBe('U015')
    expect(res.json.Errors[0].Message).toMatch(/not in the directory/)
  })

  it('reports every header problem at once, missing claims first', async () => {
    const res = await tpp.createConsent(body, { sign: { header: { [TAN]: undefined, typ: 'JWT' } } })
    expect(res.status).toBe(400)
    expect(res.json.Errors.map((e: { ErrorCode: string }) => e.ErrorCode)).toEqual(['U017', 'U016'])
  })

  it('verifies payment requests too, and the consent stays AUTH after a refused payment', async () => {
    const cbody = consentBody()
    const consentId = (await tpp.createConsent(cbody)).json.Data.ConsentId
    await h.context.consents.authorise(consentId, 'psu-amelia', ['acc-amelia-current'])
    const pay = JSON.stringify(paymentBody(consentId, cbody))
    const missing = await tpp.createPayment(consentId, pay, { signature: false })
    expect(missing.status).toBe(400)
    expect(missing.json.Errors[0].ErrorCode).toBe('U019')
    const tampered = await tpp.createPayment(consentId, pay, { sign: { signedBody: pay.replace(consentId, 'sdp-x') } })
    expect(tampered.json.Errors[0].ErrorCode).toBe('U015')
    expect((await tpp.getConsent(consentId)).json.Data.Status).toBe('AUTH')
    expect((await tpp.createPayment(consentId, pay)).status).toBe(201)
  })

  it('signature times are wall time: with the sandbox clock 3 hours ahead, a wall-time iat is accepted, a future one refused, and responses carry wall time', async () => {
    await h.clock.advance(3 * 60 * 60 * 1000)
    const before = Math.floor(Date.now() / 1000)
    const res = await tpp.createConsent(body)
    expect(res.status, res.text).toBe(201)
    const header = await verifyResponseSignature(res, h.context.signingKey.publicJwks)
    expect(header[IAT]).toBeGreaterThanOrEqual(before)
    expect(header[IAT]).toBeLessThanOrEqual(Math.floor(Date.now() / 1000))
    // An iat 2 hours ahead of wall time is still in the sandbox clock's past, but it is in the future.
    await expectRefused(
      { sign: { header: { [IAT]: before + 2 * 60 * 60 } } },
      'U016',
      /in the future \(now is \d+, wall time\)/,
    )
  })

  it('accepts a signature whose iat is within the allowed clock skew, and one from long ago', async () => {
    expect(
      (await tpp.createConsent(body, { sign: { header: { [IAT]: Math.floor(Date.now() / 1000) + 30 } } })).status,
    ).toBe(201)
    expect((await tpp.createConsent(body, { sign: { header: { [IAT]: 1_500_000_000 } } })).status).toBe(201)
  })
})
