/**
 * The full AIS journey through the real sandbox servers: directory onboarding, dynamic client
 * registration, client-credentials token, consent, PSU authorisation (headless for Amelia, the PSU pages for
 * Rahul and Grace), code exchange, then every data endpoint, with the sandbox clock moved through the
 * directory's admin endpoint.
 */
import 'reflect-metadata'
import { randomUUID } from 'node:crypto'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formAction, PsuBrowser, type Landing } from '../auth/support/psu-browser.ts'
import { startTestSandbox, type TestSandbox } from '../support/sandbox-fixture.ts'
import type { RegisteredTestClient, TestTpp } from '../support/test-tpp.ts'
import { ALL_PERMISSIONS } from './support/ais-harness.ts'

const AIS = '/open-banking/v4.0/aisp'
const PSU = { 'x-fapi-customer-ip-address': '198.51.100.23' }
const ALL = ALL_PERMISSIONS

let env: TestSandbox
let tpp: TestTpp
let headless: RegisteredTestClient
let pages: RegisteredTestClient
let directory: Agent

beforeAll(async () => {
  env = await startTestSandbox()
  tpp = await env.onboard({ roles: ['AISP'] })
  headless = await tpp.register({ overrides: { sandbox_profile: 'strict-headless', scope: 'openid accounts' } })
  pages = await tpp.register({ overrides: { scope: 'openid accounts' } })
  directory = new Agent({ connect: { ca: env.sandbox.caBundlePem }, connections: 1 })
})
afterAll(async () => {
  await directory?.close()
  await env?.stop()
})

async function ais(
  method: string,
  path: string,
  token: string,
  opts: { headers?: Record<string, string>; body?: unknown; client?: TestTpp } = {},
) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...PSU, ...opts.headers }
  let body: string | undefined
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body)
    headers['content-type'] = 'application/json'
  }
  const url = path.startsWith('https://') ? path : `${env.sandbox.baseUrl}${AIS}${path}`
  return (opts.client ?? tpp).call(method, url, { headers, body })
}

async function createConsent(client: RegisteredTestClient, permissions = ALL): Promise<string> {
  const cc = await tpp.clientCredentials(client, 'accounts')
  const res = await ais('POST', '/account-access-consents', cc, {
    body: { Data: { Permissions: permissions }, Risk: {} },
  })
  expect(res.status, res.text).toBe(201)
  return res.json.Data.ConsentId
}

const refreshTokens = new Map<string, string>()

async function exchange(client: RegisteredTestClient, code: string): Promise<string> {
  const res = await tpp.exchangeCode(client, code)
  expect(res.status, res.text).toBe(200)
  if (res.json.refresh_token) refreshTokens.set(res.json.access_token, res.json.refresh_token)
  return res.json.access_token
}

/** A new access token for the same consent (access tokens live an hour of sandbox time). */
async function refresh(client: RegisteredTestClient, accessToken: string): Promise<string> {
  const res = await tpp.tokenRequest(client, {
    grant_type: 'refresh_token',
    refresh_token: refreshTokens.get(accessToken)!,
  })
  expect(res.status, res.text).toBe(200)
  return res.json.access_token
}

/** The PSU logs in on the sandbox's pages and approves `accounts`; returns the access token. */
async function authoriseOnPages(consentId: string, username: string, accounts: string[]): Promise<string> {
  const browser = new PsuBrowser(env.sandbox.caBundlePem, [
    new URL(env.sandbox.authUrl).origin,
    new URL(env.sandbox.baseUrl).origin,
  ])
  try {
    const url = await tpp.authorisationUrl(pages, {
      consentId,
      scope: 'openid accounts',
      state: randomUUID(),
      nonce: randomUUID(),
    })
    const asPage = (l: Landing) => {
      if (l.kind !== 'page') throw new Error(`expected a page, got a redirect to ${l.location}`)
      return l
    }
    const login = asPage(await browser.get(url))
    const selection = asPage(
      await browser.post(formAction(login, '/login'), { username, password: `${username}-sandbox` }),
    )
    const done = await browser.post(formAction(selection, '/decision'), { decision: 'approve', accounts })
    if (done.kind !== 'redirect')
      throw new Error(`expected the redirect to the TPP, got ${done.status}: ${done.html.slice(0, 300)}`)
    return exchange(pages, done.params.get('code')!)
  } finally {
    await browser.close()
  }
}

async function advanceClock(advance: string): Promise<void> {
  const res = await request(`${env.sandbox.directoryUrl}/admin/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advance }),
    dispatcher: directory,
  })
  expect(res.statusCode, await res.body.text()).toBe(200)
}

async function countTransactions(
  path: string,
  token: string,
): Promise<{ count: number; pages: number; first: string }> {
  let next: string | undefined = path
  let count = 0
  let pagesSeen = 0
  let first = ''
  while (next) {
    const res = await ais('GET', next, token)
    expect(res.status, res.text).toBe(200)
    count += res.json.Data.Transaction.length
    first ||= res.json.Meta.FirstAvailableDateTime
    pagesSeen++
    next = res.json.Links.Next
  }
  return { count, pages: pagesSeen, first }
}

describe('AIS journey through the real sandbox', () => {
  it('Amelia (headless client): every resource, the full history with SCA, then 90 days', async () => {
    const consentId = await createConsent(headless)
    const auth = await tpp.authoriseHeadless(headless, consentId, 'openid accounts')
    const token = await exchange(headless, auth.code!)

    const accounts = await ais('GET', '/accounts', token)
    expect(accounts.status).toBe(200)
    expect(accounts.json.Data.Account.map((a: { AccountId: string }) => a.AccountId).sort()).toEqual([
      'acc-amelia-card',
      'acc-amelia-current',
    ])

    const full = await countTransactions('/accounts/acc-amelia-current/transactions', token)
    expect(full.count).toBeGreaterThan(1000)
    expect(full.pages).toBe(Math.ceil(full.count / 100))

    for (const path of [
      '/balances',
      '/accounts/acc-amelia-card/balances',
      '/beneficiaries',
      '/direct-debits',
      '/standing-orders',
      '/scheduled-payments',
      '/accounts/acc-amelia-card/offers',
      '/statements',
      '/party',
      '/accounts/acc-amelia-current/party',
      '/accounts/acc-amelia-card/parties',
      '/products',
      '/accounts/acc-amelia-current/product',
      '/transactions',
    ]) {
      const res = await ais('GET', path, token)
      expect(res.status, `${path}: ${res.text.slice(0, 300)}`).toBe(200)
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
      expect(res.json.Links.Self).toContain(`${AIS}${path}`)
    }
    const statements = await ais('GET', '/accounts/acc-amelia-card/statements', token)
    const file = await ais(
      'GET',
      `/accounts/acc-amelia-card/statements/${statements.json.Data.Statement[0].StatementId}/file`,
      token,
      { headers: { accept: 'application/pdf' } },
    )
    expect(file.status).toBe(200)
    expect(file.headers['content-type']).toBe('application/pdf')
    expect(file.text.startsWith('%PDF-')).toBe(true)

    await advanceClock('PT6M')
    const later = await countTransactions('/accounts/acc-amelia-current/transactions', token)
    expect(later.count).toBeLessThan(full.count)
    expect(Date.parse(later.first)).toBeGreaterThan(Date.parse(full.first) + 300 * 86_400_000)

    const got = await ais(
      'GET',
      `/account-access-consents/${consentId}`,
      await tpp.clientCredentials(headless, 'accounts'),
    )
    expect(got.json.Data.Status).toBe('AUTH')
  })

  it('Rahul and Grace (PSU pages): their own accounts only, product rules, and the PSU-absent limit', async () => {
    const rahulConsent = await createConsent(pages)
    const rahul = await authoriseOnPages(rahulConsent, 'rahul', ['acc-rahul-current'])
    const rAccounts = await ais('GET', '/accounts', rahul)
    expect(rAccounts.json.Data.Account.map((a: { AccountId: string }) => a.AccountId)).toEqual(['acc-rahul-current'])
    expect((await ais('GET', '/accounts/acc-rahul-current/parties', rahul)).json.Data.Party).toHaveLength(2)
    expect((await ais('GET', '/accounts/acc-rahul-current/offers', rahul)).json.Data.Offer).toEqual([])
    expect((await ais('GET', '/accounts/acc-amelia-current', rahul)).status).toBe(403)

    const graceConsent = await createConsent(pages)
    const grace = await authoriseOnPages(graceConsent, 'grace', ['acc-grace-card', 'acc-grace-current'])
    expect((await ais('GET', '/accounts/acc-grace-card/standing-orders', grace)).json.Data.StandingOrder).toEqual([])
    expect(
      (await ais('GET', '/accounts/acc-grace-current/standing-orders', grace)).json.Data.StandingOrder.length,
    ).toBeGreaterThan(0)
    expect((await ais('GET', '/accounts/acc-grace-card/balances', grace)).json.Data.Balance[0].CreditLine[0]).toEqual({
      Included: false,
      Type: 'Credit',
      Amount: { Amount: '8000.00', Currency: 'GBP' },
    })

    // Without x-fapi-customer-ip-address the PSU is absent: four calls in 24 hours.
    const balances = `${env.sandbox.baseUrl}${AIS}/accounts/acc-grace-card/balances`
    const absent = (token: string) => tpp.call('GET', balances, { headers: { authorization: `Bearer ${token}` } })
    for (let i = 0; i < 4; i++) expect((await absent(grace)).status).toBe(200)
    const fifth = await absent(grace)
    expect(fifth.status).toBe(429)
    expect(Number(fifth.headers['retry-after'])).toBeGreaterThan(86_000)
    await advanceClock('PT24H')
    const renewed = await refresh(pages, grace)
    expect((await absent(renewed)).status).toBe(200)
  })

  it('refuses another TPP: its certificate with this token (401), its token on this consent (403 / 400)', async () => {
    const consentId = await createConsent(headless, ['ReadAccountsBasic'])
    const auth = await tpp.authoriseHeadless(headless, consentId, 'openid accounts')
    const token = await exchange(headless, auth.code!)
    const other = await env.onboard({ roles: ['AISP'] })
    const otherClient = await other.register({ overrides: { scope: 'openid accounts' } })

    const stolen = await ais('GET', '/accounts', token, { client: other })
    expect(stolen.status).toBe(401)
    expect(stolen.text).toBe('')

    const otherCc = await other.clientCredentials(otherClient, 'accounts')
    const read = await ais('GET', `/account-access-consents/${consentId}`, otherCc, { client: other })
    expect(read.status).toBe(403)
    const del = await ais('DELETE', `/account-access-consents/${consentId}`, otherCc, { client: other })
    expect(del.status).toBe(403)
    const asData = await ais('GET', '/accounts', otherCc, { client: other })
    expect(asData.status).toBe(403)

    const own = await ais(
      'DELETE',
      `/account-access-consents/${consentId}`,
      await tpp.clientCredentials(headless, 'accounts'),
    )
    expect(own.status).toBe(204)
    expect((await ais('GET', '/accounts', token)).status).toBe(403)
  })
})
