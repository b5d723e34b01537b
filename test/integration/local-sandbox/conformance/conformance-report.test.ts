/**
 * The conformance report through the real sandbox servers: a deliberately sloppy client does each wrong
 * thing once (and the right things besides), then the directory's admin endpoint must report every rule
 * it broke as failed, with the request and the spec section, and every rule it kept as passed. A second,
 * careful client's report is ok.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { consentBody, paymentBody } from '../pis/support/pis-bodies.ts'
import { startTestSandbox, type TestSandbox } from '../support/sandbox-fixture.ts'
import { AIS, DirectoryAdmin, PIS, PSU, SloppyClient } from './support/sloppy-client.ts'

const ALL = [
  'ReadAccountsDetail',
  'ReadBalances',
  'ReadBeneficiariesDetail',
  'ReadTransactionsCredits',
  'ReadTransactionsDebits',
  'ReadTransactionsDetail',
]

let env: TestSandbox
let sloppy: SloppyClient
let careful: SloppyClient
let admin: DirectoryAdmin

/** A rule's line of the report. */
interface RuleLine {
  id: string
  passed: number
  failed: number
  spec: string
  lastFailures: Array<{
    method: string
    path: string
    interactionId: string
    detail: string
    spec: string
    status: number
    refused: boolean
    at: string
  }>
}

async function report(
  clientId: string,
): Promise<{ ok: boolean; rules: RuleLine[]; requests: number; keyedBy: string }> {
  const res = await admin.send('GET', `/admin/conformance?client_id=${encodeURIComponent(clientId)}`)
  expect(res.status, JSON.stringify(res.json)).toBe(200)
  return res.json
}

async function authorisedAis(c: SloppyClient): Promise<{ consentId: string; token: string; cc: string }> {
  const cc = await c.tpp.clientCredentials(c.client, 'accounts')
  const created = await c.call('POST', `${AIS}/account-access-consents`, {
    token: cc,
    body: JSON.stringify({ Data: { Permissions: ALL }, Risk: {} }),
  })
  expect(created.status, created.text).toBe(201)
  const consentId = created.json.Data.ConsentId as string
  const auth = await c.tpp.authoriseHeadless(c.client, consentId, 'openid accounts')
  const exchanged = await c.tpp.exchangeCode(c.client, auth.code!)
  expect(exchanged.status, exchanged.text).toBe(200)
  return { consentId, token: exchanged.json.access_token, cc }
}

/** Reads a transactions list by Links.Next to its end; returns the pages read. */
async function readAll(c: SloppyClient, path: string, token: string): Promise<number> {
  let next: string | undefined = path
  let pages = 0
  while (next) {
    const res = await c.call('GET', next, { token, headers: PSU })
    expect(res.status, res.text).toBe(200)
    pages++
    next = res.json.Links.Next
  }
  return pages
}

beforeAll(async () => {
  env = await startTestSandbox()
  admin = new DirectoryAdmin(env.sandbox.directoryUrl, env.sandbox.caBundlePem)
  const tppA = await env.onboard({ roles: ['AISP', 'PISP'] })
  const both = await tppA.register({
    overrides: { sandbox_profile: 'strict-headless', scope: 'openid accounts payments' },
  })
  sloppy = new SloppyClient(tppA, both, env.sandbox.baseUrl)
  const tppB = await env.onboard({ roles: ['AISP'] })
  careful = new SloppyClient(
    tppB,
    await tppB.register({ overrides: { sandbox_profile: 'strict-headless', scope: 'openid accounts' } }),
    env.sandbox.baseUrl,
  )
})
afterAll(async () => {
  await admin?.close()
  await env?.stop()
})

describe('the conformance report of a sloppy client', () => {
  it('reports every rule the client broke, with the request and the spec, and the rules it kept as passed', async () => {
    const c = sloppy
    const { consentId, token, cc } = await authorisedAis(c)
    const current = '/accounts/acc-amelia-current'

    // Required headers: a data call without Authorization (the certificate names the client).
    expect((await c.call('GET', `${AIS}/accounts`, { headers: PSU })).status).toBe(401)
    // Forbidden headers: a dropped header, and an idempotency key on AIS.
    expect(
      (
        await c.call('GET', `${AIS}/accounts`, {
          token,
          headers: { ...PSU, 'x-fapi-financial-id': '0015800001041RHAAY' },
        })
      ).status,
    ).toBe(200)
    // Interaction id: none sent; then one id on two different calls.
    expect(
      (await c.call('GET', `${AIS}/accounts`, { token, headers: { ...PSU, 'x-fapi-interaction-id': undefined } }))
        .status,
    ).toBe(200)
    const reused = randomUUID()
    await c.call('GET', `${AIS}/accounts`, { token, headers: { ...PSU, 'x-fapi-interaction-id': reused } })
    await c.call('GET', `${AIS}${current}`, { token, headers: { ...PSU, 'x-fapi-interaction-id': reused } })
    // Request body against the schema: Permissions must be a list.
    const notAList = JSON.stringify({ Data: { Permissions: 'ReadBalances' }, Risk: {} })
    expect((await c.call('POST', `${AIS}/account-access-consents`, { token: cc, body: notAList })).status).toBe(400)
    // The wrong token: a client-credentials token on a data endpoint.
    expect((await c.call('GET', `${AIS}/accounts`, { token: cc, headers: PSU })).status).toBe(403)
    // PSU absent: the balances five times (the fifth is over the budget), then an endpoint that needs the PSU.
    for (let i = 0; i < 4; i++) expect((await c.call('GET', `${AIS}${current}/balances`, { token })).status).toBe(200)
    expect((await c.call('GET', `${AIS}${current}/balances`, { token })).status).toBe(429)
    expect((await c.call('GET', `${AIS}${current}/beneficiaries`, { token })).status).toBe(403)
    // Pagination: page 1 then stop; page 1 then page 3 (another list: a filter); a page past the last; one list read right.
    const page1 = await c.call('GET', `${AIS}${current}/transactions`, { token, headers: PSU })
    expect(page1.json.Meta.TotalPages).toBeGreaterThan(3)
    expect(page1.json.Links.Next).toBeTruthy()
    const filtered = `${AIS}${current}/transactions?fromBookingDateTime=2000-01-01T00:00:00`
    expect((await c.call('GET', filtered, { token, headers: PSU })).status).toBe(200)
    expect((await c.call('GET', `${filtered}&page=3`, { token, headers: PSU })).status).toBe(200)
    expect((await c.call('GET', `${AIS}${current}/transactions?page=9999`, { token, headers: PSU })).status).toBe(400)
    expect(await readAll(c, `${AIS}/accounts/acc-amelia-card/transactions`, token)).toBeGreaterThan(1)

    // PIS: one consent right, then each wrong thing once.
    const pcc = await c.tpp.clientCredentials(c.client, 'payments')
    const body = consentBody('9.99')
    const text = JSON.stringify(body)
    const key = randomUUID()
    const created = await c.pisPost('/domestic-payment-consents', pcc, text, { key })
    expect(created.status, created.text).toBe(201)
    expect((await c.pisPost('/domestic-payment-consents', pcc, text, { key })).status).toBe(201) // a retry: fine
    expect(
      (await c.pisPost('/domestic-payment-consents', pcc, JSON.stringify(consentBody('10.00')), { key })).status,
    ).toBe(400) // same key, other body
    expect((await c.pisPost('/domestic-payment-consents', pcc, text, { key: null })).status).toBe(400) // no key
    expect((await c.pisPost('/domestic-payment-consents', pcc, text, { signature: null })).status).toBe(400) // no signature
    expect(
      (
        await c.pisPost('/domestic-payment-consents', pcc, text, {
          header: { 'http://openbanking.org.uk/iss': 'someone/else' },
        })
      ).status,
    ).toBe(400)
    const { Initiation: _gone, ...noInitiation } = body.Data
    expect(
      (await c.pisPost('/domestic-payment-consents', pcc, JSON.stringify({ ...body, Data: noInitiation }))).status,
    ).toBe(400)
    const pisConsentId = created.json.Data.ConsentId as string
    const auth = await c.tpp.authoriseHeadless(c.client, pisConsentId, 'openid payments')
    const pac = (await c.tpp.exchangeCode(c.client, auth.code!)).json.access_token as string
    const payment = JSON.stringify(paymentBody(pisConsentId, body))
    expect((await c.pisPost('/domestic-payments', pac, payment)).status).toBe(201)
    // Consent status: a second payment on the consumed consent (a new key: not a retry).
    expect((await c.pisPost('/domestic-payments', pac, payment)).status).toBe(409)

    // Consent status (AIS): the TPP deletes its consent, then reads with its token.
    expect((await c.call('DELETE', `${AIS}/account-access-consents/${consentId}`, { token: cc })).status).toBe(204)
    expect((await c.call('GET', `${AIS}/accounts`, { token, headers: PSU })).status).toBe(403)
    // Token after expiry: two hours of sandbox time later, the hour-long token is used again.
    await env.sandbox.context.clock.advance(2 * 3600_000)
    expect((await c.call('GET', `${AIS}/accounts`, { token, headers: PSU })).status).toBe(401)

    const r = await report(c.client.clientId)
    expect(r.keyedBy).toBe('client')
    expect(r.ok).toBe(false)
    const rule = (id: string) => r.rules.find((x) => x.id === id)!
    const failedWith = (id: string, ...fragments: string[]) => {
      const line = rule(id)
      expect(line.failed, `${id} failed`).toBeGreaterThan(0)
      const details = line.lastFailures.map((f) => f.detail).join('\n')
      for (const fragment of fragments) expect(details, `${id}: ${fragment}`).toContain(fragment)
      for (const f of line.lastFailures) {
        expect(f.spec).toBe(line.spec)
        expect(f.interactionId).toMatch(/^[0-9a-f-]{36}$/)
        expect(f.method).toMatch(/^(GET|POST|DELETE)$/)
      }
      return line
    }
    const noAuthorization = failedWith('headers.required', 'no Authorization header').lastFailures[0]
    expect(noAuthorization).toMatchObject({ method: 'GET', path: `${AIS}/accounts`, status: 401, refused: true })
    expect(failedWith('headers.forbidden', 'x-fapi-financial-id').lastFailures[0]).toMatchObject({
      status: 200,
      refused: false,
    })
    failedWith(
      'interaction-id',
      'no x-fapi-interaction-id was sent',
      `x-fapi-interaction-id ${reused} was already used on GET ${AIS}/accounts`,
    )
    failedWith('schema.request-body', 'Permissions')
    failedWith('token.use', 'authorisation-code token', 'the token sent is a client-credentials token')
    failedWith('psu-absent.budget', 'U014')
    failedWith('psu-absent.endpoints', 'needs the PSU to be present')
    failedWith(
      'pagination',
      'stopped after page 1 of',
      'jumped from page 1 to page 3',
      'page 9999 is past the last page',
    )
    failedWith('idempotency.reuse', 'x-idempotency-key')
    failedWith('idempotency.key', 'x-idempotency-key header is missing')
    failedWith('jws.signature', 'U019')
    failedWith('jws.header', 'someone/else')
    failedWith('consent.status', 'COND', 'was revoked (status CANC)')
    failedWith('token.expiry', 'the access token expired at')
    for (const line of r.rules) expect(line.passed, `${line.id} passed`).toBeGreaterThan(0)
    // The card list read to its end passed. Failed: the list left after page 1, the jump to page 3, the page
    // past the last, and the filtered list left unfinished after the jump (a stop counts as it stands).
    expect(rule('pagination')).toMatchObject({ passed: 1, failed: 4 })
    expect(rule('psu-absent.budget')).toMatchObject({ passed: 4, failed: 1 })
    expect(rule('idempotency.reuse').failed).toBe(1)
  })

  it('a careful client gets an ok report; records are listed and cleared through the admin endpoint', async () => {
    const c = careful
    const { token } = await authorisedAis(c)
    expect((await c.call('GET', `${AIS}/accounts`, { token, headers: PSU })).status).toBe(200)
    const pages = await readAll(c, `${AIS}/accounts/acc-amelia-card/transactions`, token)
    expect(pages).toBeGreaterThan(1)
    const r = await report(c.client.clientId)
    expect(r.rules.filter((x) => x.failed).map((x) => [x.id, x.lastFailures[0]?.detail])).toEqual([])
    expect(r.ok).toBe(true)
    // The consent, the accounts, the pages: the admin calls and the token endpoint are not AIS or PIS calls.
    expect(r.requests).toBe(2 + pages)
    expect(r.rules.find((x) => x.id === 'pagination')).toMatchObject({ passed: 1, failed: 0 })

    const list = await admin.send('GET', '/admin/conformance')
    expect(list.status).toBe(200)
    expect(list.json.clients.map((x: { clientId: string }) => x.clientId)).toEqual(
      expect.arrayContaining([sloppy.client.clientId, c.client.clientId]),
    )
    expect(list.json.rules.map((x: { id: string }) => x.id)).toContain('pagination')
    expect(list.json.limits).toMatchObject({ clients: 100, failuresPerRule: 20 })

    expect(await admin.send('DELETE', `/admin/conformance?client_id=${c.client.clientId}`)).toMatchObject({
      status: 200,
      json: { removed: 1 },
    })
    const gone = await admin.send('GET', `/admin/conformance?client_id=${c.client.clientId}`)
    expect(gone.status).toBe(404)
    expect(gone.json.error_description).toContain(sloppy.client.clientId)
    expect((await admin.send('GET', '/admin/conformance?client_id=')).status).toBe(400)
    expect((await admin.send('POST', '/admin/conformance')).status).toBe(405)
  })
})

describe('requests no token names', () => {
  it('are kept under the certificate (cert:<x5t#S256>) until a valid token names its client', async () => {
    const tpp = await env.onboard({ roles: ['AISP'] })
    const client = await tpp.register({ overrides: { sandbox_profile: 'strict-headless', scope: 'openid accounts' } })
    const c = new SloppyClient(tpp, client, env.sandbox.baseUrl)
    expect((await c.call('GET', `${PIS}/domestic-payments/x`, { token: 'not-a-token' })).status).toBe(401)
    const list = await admin.send('GET', '/admin/conformance')
    const cert = list.json.clients.find((x: { keyedBy: string; requests: number }) => x.keyedBy === 'certificate')
    expect(cert?.clientId).toMatch(/^cert:[A-Za-z0-9_-]{43}$/)
    const r = await report(cert.clientId)
    expect(r.rules.find((x) => x.id === 'token.expiry')!.lastFailures[0]!.detail).toContain('unknown to the sandbox')
  })
})
