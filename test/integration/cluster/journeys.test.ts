/**
 * The whole AIS and PIS journeys through a TCP balancer in front of three sandbox instances on one
 * PostgreSQL store (test/support/sandbox-cluster.ts). Every request opens a new connection, so consecutive
 * steps of one journey (registration, token, consent, the PSU's login pages, code exchange, reads, payment)
 * land on different instances; the balancer's counts show they did.
 */
import { randomUUID } from 'node:crypto'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestPostgres, type TestPostgres } from '../../support/postgres.ts'
import { startSandboxCluster, type SandboxCluster } from '../../support/sandbox-cluster.ts'
import { formAction, PsuBrowser, type Landing } from '../local-sandbox/auth/support/psu-browser.ts'
import { signDetached, type TppSigner } from '../local-sandbox/pis/support/detached-sign.ts'
import { consentBody, paymentBody } from '../local-sandbox/pis/support/pis-bodies.ts'
import { TestTpp, type RegisteredTestClient, type TppKit } from '../local-sandbox/support/test-tpp.ts'

const AIS = '/open-banking/v4.0/aisp'
const PIS = '/open-banking/v4.0/pisp'
const PSU = { 'x-fapi-customer-ip-address': '198.51.100.23' }

describe('AIS and PIS journeys through a TCP balancer in front of three instances', () => {
  let pg: TestPostgres
  let cluster: SandboxCluster
  let tpp: TestTpp
  let kit: TppKit
  let signer: TppSigner

  beforeAll(async () => {
    pg = await startTestPostgres()
    cluster = await startSandboxCluster({ storeUrl: pg.createDatabase('cluster_journeys') })
    kit = (await cluster.onboard(['AISP', 'PISP'])) as TppKit
    tpp = new TestTpp({ ...cluster.front, caBundlePem: cluster.caBundlePem }, kit, { freshConnections: true })
    signer = { kid: kit.signingKid, privateKey: await tpp.signingKey(), iss: `${kit.orgId}/${kit.softwareId}` }
  }, 120_000)

  afterAll(async () => {
    await tpp?.close()
    await cluster?.stop()
    pg?.stop()
  })

  const call = (method: string, path: string, token: string, headers: Record<string, string> = {}, body?: string) =>
    tpp.call(method, path.startsWith('https://') ? path : `${cluster.front.baseUrl}${path}`, {
      headers: {
        authorization: `Bearer ${token}`,
        ...headers,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body,
    })

  /** The PSU logs in on the sandbox's pages (each request a new connection) and approves `accounts`. */
  async function approveOnPages(
    client: RegisteredTestClient,
    consentId: string,
    scope: string,
    choice: Record<string, string | string[]>,
  ) {
    const origins = [cluster.front.authUrl, cluster.front.baseUrl].map((u) => new URL(u).origin)
    const browser = new PsuBrowser(cluster.caBundlePem, origins, { freshConnections: true })
    try {
      const state = randomUUID()
      const url = await tpp.authorisationUrl(client, { consentId, scope, state, nonce: randomUUID() })
      const page = (l: Landing) => {
        if (l.kind !== 'page') throw new Error(`expected a page, got a redirect to ${l.location}`)
        return l
      }
      const login = page(await browser.get(url))
      expect(login.html).toContain('<h1>Log in to your bank</h1>')
      const selection = page(
        await browser.post(formAction(login, '/login'), { username: 'rahul', password: 'rahul-sandbox' }),
      )
      const done = await browser.post(formAction(selection, '/decision'), { decision: 'approve', ...choice })
      if (done.kind !== 'redirect')
        throw new Error(`expected the redirect to the TPP, got ${done.status}: ${done.html}`)
      expect(done.params.get('state')).toBe(state)
      return done.params.get('code')!
    } finally {
      await browser.close()
    }
  }

  it('every URL the instances write is the balancer’s, and /livez answers on each instance and through it', async () => {
    const discovery = await tpp.discovery()
    for (const key of ['issuer', 'authorization_endpoint', 'token_endpoint', 'registration_endpoint', 'jwks_uri'])
      expect(new URL(discovery[key] as string).port, key).toMatch(
        new RegExp(`^(${cluster.balancer.port}|${cluster.balancer.port + 1})$`),
      )
    const plain = new Agent({ connect: { ca: cluster.caBundlePem }, pipelining: 0 })
    try {
      for (const origins of [...cluster.instances.map((i) => i.direct), cluster.front])
        for (const url of [origins.baseUrl, origins.authUrl, origins.directoryUrl]) {
          const res = await request(`${url}/livez`, { dispatcher: plain })
          expect(res.statusCode, url).toBe(200)
          await res.body.dump()
        }
    } finally {
      await plain.close()
    }
  })

  it('TLS passes through: no client certificate is explained by the instance; a tls-handshake fault holds across all three', async () => {
    const cc = await tpp.clientCredentials(await tpp.register({ overrides: { scope: 'openid accounts' } }), 'accounts')
    // Without a certificate the instance itself sees none (--tls-mode explain): a 401 naming the problem.
    const bare = await tpp.call('GET', `${cluster.front.baseUrl}${AIS}/accounts`, {
      headers: { authorization: `Bearer ${cc}` },
      mtls: false,
    })
    expect(bare.status).toBe(401)
    expect(bare.headers['www-authenticate']).toContain('no client certificate was presented')

    // A rule set through the balancer lives in the store: 3 handshakes refused, whichever instance they reach.
    const admin = new Agent({ connect: { ca: cluster.caBundlePem } })
    try {
      const added = await request(`${cluster.front.directoryUrl}/admin/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...cluster.adminHeaders },
        body: JSON.stringify({ id: 'handshakes', origin: 'base', times: 3, fault: { kind: 'tls-handshake' } }),
        dispatcher: admin,
      })
      expect(added.statusCode, await added.body.text()).toBe(201)
      const before = cluster.balancer.connections()
      const outcomes: string[] = []
      for (let i = 0; i < 6; i++) {
        const r = await call('GET', `${AIS}/accounts`, cc).then(
          (res) => `HTTP ${res.status}`,
          (err: Error & { code?: string; cause?: { code?: string } }) => err.code ?? err.cause?.code ?? err.message,
        )
        outcomes.push(r)
      }
      // The first three connections are refused, the next three answer (403: a client-credentials token).
      expect(outcomes.slice(3)).toEqual(['HTTP 403', 'HTTP 403', 'HTTP 403'])
      expect(outcomes.slice(0, 3).every((o) => !o.startsWith('HTTP'))).toBe(true)
      const after = cluster.balancer.connections()
      expect(after.map((n, i) => n - before[i]!)).toEqual([2, 2, 2])
    } finally {
      await request(`${cluster.front.directoryUrl}/admin/faults`, {
        method: 'DELETE',
        headers: cluster.adminHeaders,
        dispatcher: admin,
      }).then((r) => r.body.dump())
      await admin.close()
    }
  })

  it('AIS: registration, consent, the PSU pages, code exchange, every read and paging, refresh and revocation', async () => {
    const before = cluster.balancer.connections()
    const client = await tpp.register({ overrides: { scope: 'openid accounts' } })
    const cc = await tpp.clientCredentials(client, 'accounts')
    const consentText = JSON.stringify({
      Data: {
        Permissions: [
          'ReadAccountsDetail',
          'ReadBalances',
          'ReadTransactionsDetail',
          'ReadTransactionsCredits',
          'ReadTransactionsDebits',
        ],
      },
      Risk: {},
    })
    const created = await call('POST', `${AIS}/account-access-consents`, cc, {}, consentText)
    expect(created.status, created.text).toBe(201)
    const consentId = created.json.Data.ConsentId as string
    expect(created.json.Links.Self).toBe(`${cluster.front.baseUrl}${AIS}/account-access-consents/${consentId}`)

    const code = await approveOnPages(client, consentId, 'openid accounts', { accounts: ['acc-rahul-current'] })
    const tokens = await tpp.exchangeCode(client, code)
    expect(tokens.status, tokens.text).toBe(200)
    const token = tokens.json.access_token as string

    const accounts = await call('GET', `${AIS}/accounts`, token, PSU)
    expect(accounts.status, accounts.text).toBe(200)
    expect(accounts.json.Data.Account.map((a: { AccountId: string }) => a.AccountId)).toEqual(['acc-rahul-current'])
    const balances = await call('GET', `${AIS}/accounts/acc-rahul-current/balances`, token, PSU)
    expect(balances.status, balances.text).toBe(200)
    expect(balances.json.Data.Balance.length).toBeGreaterThan(0)

    // Paging: each page on a new connection (another instance), every Next link through the balancer.
    let next: string | undefined = `${AIS}/accounts/acc-rahul-current/transactions`
    const ids = new Set<string>()
    let pages = 0
    while (next) {
      const page = await call('GET', next, token, PSU)
      expect(page.status, page.text).toBe(200)
      for (const t of page.json.Data.Transaction as Array<{ TransactionId: string }>) ids.add(t.TransactionId)
      next = page.json.Links.Next as string | undefined
      if (next) expect(new URL(next).origin).toBe(cluster.front.baseUrl)
      pages++
    }
    expect(pages).toBeGreaterThan(1)
    expect(ids.size).toBeGreaterThan(pages)

    const refreshed = await tpp.tokenRequest(client, {
      grant_type: 'refresh_token',
      refresh_token: tokens.json.refresh_token as string,
    })
    expect(refreshed.status, refreshed.text).toBe(200)
    expect((await call('GET', `${AIS}/accounts`, refreshed.json.access_token as string, PSU)).status).toBe(200)

    expect((await call('DELETE', `${AIS}/account-access-consents/${consentId}`, cc)).status).toBe(204)
    for (let i = 0; i < cluster.instances.length; i++)
      expect((await call('GET', `${AIS}/accounts`, refreshed.json.access_token as string, PSU)).status).toBe(403)

    const after = cluster.balancer.connections()
    for (const [i, n] of after.entries()) expect(n - before[i]!, `instance ${i}`).toBeGreaterThan(3)
  })

  it('PIS: consent, funds, the PSU pages, the payment, its status and details, and no second payment', async () => {
    const before = cluster.balancer.connections()
    const client = await tpp.register({ overrides: { scope: 'openid payments' } })
    const cc = await tpp.clientCredentials(client, 'payments')
    const consent = consentBody('4.21')
    const consentText = JSON.stringify(consent)
    const signed = (text: string, key = randomUUID()) => ({
      'x-idempotency-key': key,
      'x-jws-signature': signDetached(text, signer),
    })
    const consentKey = randomUUID()
    const created = await call(
      'POST',
      `${PIS}/domestic-payment-consents`,
      cc,
      signed(consentText, consentKey),
      consentText,
    )
    expect(created.status, created.text).toBe(201)
    const consentId = created.json.Data.ConsentId as string
    // The same key and body on another instance: the same consent.
    const again = await call(
      'POST',
      `${PIS}/domestic-payment-consents`,
      cc,
      signed(consentText, consentKey),
      consentText,
    )
    expect(again.status, again.text).toBe(201)
    expect(again.json.Data.ConsentId).toBe(consentId)

    const code = await approveOnPages(client, consentId, 'openid payments', { debtor: 'acc-rahul-current' })
    const tokens = await tpp.exchangeCode(client, code)
    expect(tokens.status, tokens.text).toBe(200)
    const token = tokens.json.access_token as string
    const funds = await call('GET', `${PIS}/domestic-payment-consents/${consentId}/funds-confirmation`, token)
    expect(funds.status, funds.text).toBe(200)
    expect(funds.json.Data.FundsAvailableResult.FundsAvailable).toBe(true)

    const payment = JSON.stringify(paymentBody(consentId, consent))
    const made = await call('POST', `${PIS}/domestic-payments`, token, signed(payment), payment)
    expect(made.status, made.text).toBe(201)
    const paymentId = made.json.Data.DomesticPaymentId as string
    for (let i = 0; i < cluster.instances.length; i++) {
      const status = await call('GET', `${PIS}/domestic-payments/${paymentId}`, cc)
      expect(status.status, status.text).toBe(200)
      expect(status.json.Data.ConsentId).toBe(consentId)
    }
    const details = await call('GET', `${PIS}/domestic-payments/${paymentId}/payment-details`, cc)
    expect(details.status, details.text).toBe(200)
    const consumed = await call('GET', `${PIS}/domestic-payment-consents/${consentId}`, cc)
    expect(consumed.json.Data.Status).toBe('COND') // consumed
    const second = await call('POST', `${PIS}/domestic-payments`, token, signed(payment), payment)
    expect(second.status, second.text).toBeGreaterThanOrEqual(400)
    expect(second.status).toBeLessThan(500)

    const after = cluster.balancer.connections()
    for (const [i, n] of after.entries()) expect(n - before[i]!, `instance ${i}`).toBeGreaterThan(3)
  })
})
