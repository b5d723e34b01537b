/**
 * Walks every AIS v4.0 endpoint the sandbox serves, for every seeded PSU and account (every account
 * product), with detail and basic permissions, through every transactions page, and validates each
 * response (status, required headers, body) against the official v4.0 schemas: zero violations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { obSchemas, type SchemaViolation } from '../../../../src-main/local-sandbox/openapi/ob-openapi.ts'
import { loadPsus } from '../../../../src-main/local-sandbox/psus.ts'
import { ALL_PERMISSIONS, AIS, startAisHarness, type AisHarness, type Reply } from '../ais/support/ais-harness.ts'
import { groupViolations, type Found } from './support/violations.ts'

const BASIC_PERMISSIONS = [
  'ReadAccountsBasic',
  'ReadBalances',
  'ReadBeneficiariesBasic',
  'ReadDirectDebits',
  'ReadOffers',
  'ReadParty',
  'ReadPartyPSU',
  'ReadProducts',
  'ReadScheduledPaymentsBasic',
  'ReadStandingOrdersBasic',
  'ReadStatementsBasic',
  'ReadTransactionsBasic',
  'ReadTransactionsCredits',
  'ReadTransactionsDebits',
]

/** At most this many pages of one list are walked (the seed has fewer). */
const MAX_PAGES = 40

describe('AIS responses against the official v4.0 schemas', () => {
  let h: AisHarness
  const found: Found[] = []
  let ok = 0

  beforeAll(async () => {
    h = await startAisHarness()
  })
  afterAll(async () => h?.stop())

  async function call(
    method: string,
    path: string,
    opts: Parameters<AisHarness['tppA']['call']>[2] = {},
  ): Promise<Reply> {
    const res = await h.tppA.call(method, path, opts)
    const rest = path.startsWith('https://') ? new URL(path).pathname.slice(AIS.length) : path.split('?')[0]!
    const json = (res.headers['content-type'] ?? '').startsWith('application/json')
    const violations: SchemaViolation[] = json
      ? obSchemas().checkResponse('ais', method, rest, res.status, res.headers, res.body)
      : obSchemas()
          .checkResponse('ais', method, rest, res.status, res.headers, undefined)
          .filter((v) => v.keyword === 'header' || v.keyword === 'status' || v.keyword === 'operation')
    for (const v of violations)
      found.push({
        endpoint: `${method} ${obSchemas().matchPath('ais', rest) ?? rest} ${res.status}`,
        violation: v,
        body: res.body,
      })
    return res
  }

  /** GETs a list and every following page (Links.Next), bounded. */
  async function walkPages(path: string, token: string): Promise<Reply[]> {
    const pages: Reply[] = []
    let next: string | undefined = path
    for (let i = 0; next && i < MAX_PAGES; i++) {
      const res = await call('GET', next, { token })
      // A product rule may refuse an endpoint for an account (its error body is checked too).
      if (res.status !== 200) break
      ok += 1
      pages.push(res)
      next = res.body?.Links?.Next
    }
    expect(next, `${path} has more than ${MAX_PAGES} pages`).toBeUndefined()
    return pages
  }

  async function walkConsent(permissions: string[], psuId: string, accountIds: string[]): Promise<void> {
    const { consentId, token } = await h.tppA.authorised(permissions, psuId, accountIds)
    const cc = h.tppA.ccToken()
    expect((await call('GET', `/account-access-consents/${consentId}`, { token: cc })).status).toBe(200)
    for (const list of [
      '/accounts',
      '/balances',
      '/transactions',
      '/beneficiaries',
      '/direct-debits',
      '/standing-orders',
      '/scheduled-payments',
      '/offers',
      '/statements',
      '/party',
      '/products',
    ]) {
      await walkPages(list, token)
    }
    for (const accountId of accountIds) {
      const a = `/accounts/${accountId}`
      for (const sub of [
        '',
        '/balances',
        '/transactions',
        '/beneficiaries',
        '/direct-debits',
        '/standing-orders',
        '/scheduled-payments',
        '/offers',
        '/party',
        '/parties',
        '/product',
      ]) {
        await walkPages(`${a}${sub}`, token)
      }
      const statements = await walkPages(`${a}/statements`, token)
      for (const page of statements) {
        for (const st of (page.body?.Data?.Statement ?? []) as Array<{ StatementId: string }>) {
          await walkPages(`${a}/statements/${st.StatementId}`, token)
          await walkPages(`${a}/statements/${st.StatementId}/transactions`, token)
          if (permissions.includes('ReadStatementsDetail')) {
            const file = await call('GET', `${a}/statements/${st.StatementId}/file`, {
              token,
              headers: { accept: 'application/pdf' },
            })
            expect(file.status).toBe(200)
          }
        }
      }
    }
    // Errors are answers too: an unknown account (400/403/404 body), then the consent deleted.
    await call('GET', '/accounts/no-such-account', { token })
    expect((await call('DELETE', `/account-access-consents/${consentId}`, { token: cc })).status).toBe(204)
    await call('GET', `/account-access-consents/${consentId}`, { token: cc })
  }

  it('every endpoint, every PSU and account product, detail and basic permissions, every page: zero violations', async () => {
    for (const psu of loadPsus().psus) {
      // Savings accounts are not shared through AIS (the bank's rule); the walk checks that answer too.
      const accountIds = psu.accounts.filter((a) => a.accountTypeCode !== 'SVGS').map((a) => a.accountId)
      for (const a of psu.accounts.filter((x) => x.accountTypeCode === 'SVGS'))
        await call('GET', `/accounts/${a.accountId}`, { token: h.tppA.codeToken('none') })
      await walkConsent(ALL_PERMISSIONS, psu.psuId, accountIds)
      await walkConsent(BASIC_PERMISSIONS, psu.psuId, accountIds)
    }
    // A bad consent request: the 400 error body.
    await call('POST', '/account-access-consents', {
      token: h.tppA.ccToken(),
      body: { Data: { Permissions: ['ReadNothing'] }, Risk: {} },
    })
    const groups = groupViolations(found)
    expect(ok).toBeGreaterThan(100)
    expect(
      groups,
      groups
        .map((g) => `${g.count}x ${g.group}: ${JSON.stringify(g.example.value)?.slice(0, 80)} (${g.example.message})`)
        .join('\n'),
    ).toEqual([])
  }, 120_000)
})
