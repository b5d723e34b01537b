/**
 * The races of a shared store, run against any two entry points to sandbox processes on one PostgreSQL
 * store: two instances side by side (shared-store-races.test.ts), or one balancer in front of three
 * (test/integration/cluster/races.test.ts), where `sides` are the same address and every request opens a
 * new connection. The store's compound operations must hold across processes, oidc-provider's included
 * (clients, tokens, authorisation codes and JWT ids live in the store).
 */
import { randomUUID } from 'node:crypto'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signDetached, type TppSigner } from '../../pis/support/detached-sign.ts'
import { consentBody, paymentBody } from '../../pis/support/pis-bodies.ts'
import { TestTpp, type HttpResponse, type RegisteredTestClient, type TppKit } from '../../support/test-tpp.ts'

const PIS = '/open-banking/v4.0/pisp'
const AIS = '/open-banking/v4.0/aisp'

/** The three origins of an entry point. */
export interface Origins {
  baseUrl: string
  authUrl: string
  directoryUrl: string
}

/** Where the races run: two entry points, the CA, a TPP's starter kit, the admin token's header. */
export interface RaceSetup {
  sides: [Origins, Origins]
  caPem: string
  kit: TppKit
  adminHeaders: Record<string, string>
  /** Every request on a new connection (behind a balancer). */
  freshConnections: boolean
  stop(): Promise<void>
}

export function describeStoreRaces(title: string, start: () => Promise<RaceSetup>): void {
  describe(title, () => {
    let setup: RaceSetup
    let a: Origins
    let b: Origins
    let tppA: TestTpp
    let tppB: TestTpp
    let client: RegisteredTestClient
    let signer: TppSigner
    let wide: Agent
    let caPem: string

    beforeAll(async () => {
      setup = await start()
      ;[a, b] = setup.sides
      caPem = setup.caPem
      const kit = setup.kit
      const fresh = { freshConnections: setup.freshConnections }
      tppA = new TestTpp({ ...a, caBundlePem: caPem }, kit, fresh)
      tppB = new TestTpp({ ...b, caBundlePem: caPem }, kit, fresh)
      client = await tppA.register({
        overrides: { sandbox_profile: 'strict-headless', scope: 'openid accounts payments' },
      })
      signer = { kid: kit.signingKid, privateKey: await tppA.signingKey(), iss: `${kit.orgId}/${kit.softwareId}` }
      // Many connections at once: the requests of a race really run concurrently.
      wide = new Agent({
        connect: { ca: caPem, cert: kit.transportCertPem, key: kit.transportKeyPem },
        connections: 32,
        ...(setup.freshConnections ? { pipelining: 0 } : {}),
      })
    }, 120_000)

    afterAll(async () => {
      await Promise.all([tppA?.close(), tppB?.close(), wide?.close()])
      await setup?.stop()
    })

    const both = (i: number) => (i % 2 === 0 ? a : b)
    const call = (
      base: string,
      method: string,
      path: string,
      token: string,
      extra: Record<string, string> = {},
      body?: string,
    ) =>
      tppA.call(method, `${base}${path}`, {
        headers: {
          authorization: `Bearer ${token}`,
          ...extra,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body,
        agent: wide,
      })

    async function authorisedPayment(amount = '3.00'): Promise<{ consentId: string; token: string; payment: string }> {
      const cc = await tppA.clientCredentials(client, 'payments')
      const consent = consentBody(amount)
      const text = JSON.stringify(consent)
      const created = await call(
        a.baseUrl,
        'POST',
        `${PIS}/domestic-payment-consents`,
        cc,
        {
          'x-idempotency-key': randomUUID(),
          'x-jws-signature': signDetached(text, signer),
        },
        text,
      )
      expect(created.status, created.text).toBe(201)
      const consentId = created.json.Data.ConsentId as string
      const auth = await tppA.authoriseHeadless(client, consentId, 'openid payments')
      const token = (await tppA.exchangeCode(client, auth.code!)).json.access_token as string
      return { consentId, token, payment: JSON.stringify(paymentBody(consentId, consent)) }
    }

    it('the same payment POST with one idempotency key, 20 times across both: one payment, 20 identical answers', async () => {
      const { token, payment } = await authorisedPayment()
      const key = randomUUID()
      const signature = signDetached(payment, signer)
      const answers: HttpResponse[] = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call(
            both(i).baseUrl,
            'POST',
            `${PIS}/domestic-payments`,
            token,
            { 'x-idempotency-key': key, 'x-jws-signature': signature },
            payment,
          ),
        ),
      )
      expect(answers.map((r) => r.status)).toEqual(Array(20).fill(201))
      const ids = new Set(answers.map((r) => r.json.Data.DomesticPaymentId))
      expect(ids.size).toBe(1)
      const strip = (r: HttpResponse) => ({ ...r.json.Data, Status: undefined, StatusUpdateDateTime: undefined })
      for (const r of answers) expect(strip(r)).toEqual(strip(answers[0]!))
    })

    it('a clock advance on one instance is seen by the other', async () => {
      const admin = new Agent({ connect: { ca: caPem } })
      const clock = async (i: Origins, method: 'GET' | 'POST', body?: object) => {
        const res = await request(`${i.directoryUrl}/admin/clock`, {
          method,
          headers: { 'content-type': 'application/json', ...setup.adminHeaders },
          body: body && JSON.stringify(body),
          dispatcher: admin,
        })
        return (await res.body.json()) as { offsetSeconds: number; now: string }
      }
      const before = await clock(b, 'GET')
      await clock(a, 'POST', { advanceSeconds: 3600 })
      const after = await clock(b, 'GET')
      await admin.close()
      expect(after.offsetSeconds - before.offsetSeconds).toBe(3600)
    })

    it('8 concurrent PSU-absent reads across both with 3 accesses left: exactly 3 succeed', async () => {
      const cc = await tppA.clientCredentials(client, 'accounts')
      const body = JSON.stringify({ Data: { Permissions: ['ReadAccountsBasic', 'ReadBalances'] }, Risk: {} })
      const created = await call(a.baseUrl, 'POST', `${AIS}/account-access-consents`, cc, {}, body)
      expect(created.status, created.text).toBe(201)
      const consentId = created.json.Data.ConsentId as string
      const auth = await tppA.authoriseHeadless(client, consentId, 'openid accounts')
      const token = (await tppA.exchangeCode(client, auth.code!)).json.access_token as string
      const accounts = await call(a.baseUrl, 'GET', `${AIS}/accounts`, token)
      expect(accounts.status, accounts.text).toBe(200)
      const balances = `${AIS}/accounts/${accounts.json.Data.Account[0].AccountId}/balances`
      expect((await call(b.baseUrl, 'GET', balances, token)).status).toBe(200)
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => call(both(i).baseUrl, 'GET', balances, token)),
      )
      expect(results.filter((r) => r.status === 200)).toHaveLength(3)
      expect(results.filter((r) => r.status === 429)).toHaveLength(5)
    })

    it('a revocation on one instance racing the approval on the other: one consistent final status on both', async () => {
      const cc = await tppA.clientCredentials(client, 'accounts')
      const body = JSON.stringify({ Data: { Permissions: ['ReadAccountsBasic'] }, Risk: {} })
      for (let round = 0; round < 4; round++) {
        const created = await call(a.baseUrl, 'POST', `${AIS}/account-access-consents`, cc, {}, body)
        expect(created.status, created.text).toBe(201)
        const consentId = created.json.Data.ConsentId as string
        const [approval, revocation] = await Promise.all([
          tppA.authoriseHeadless(client, consentId, 'openid accounts'),
          call(b.baseUrl, 'DELETE', `${AIS}/account-access-consents/${consentId}`, cc),
        ])
        expect(revocation.status).toBe(204)
        // Whichever landed first, the consent ends deleted, and both instances say so alike.
        const seenByA = await call(a.baseUrl, 'GET', `${AIS}/account-access-consents/${consentId}`, cc)
        const seenByB = await call(b.baseUrl, 'GET', `${AIS}/account-access-consents/${consentId}`, cc)
        expect([seenByA.status, seenByB.status]).toEqual([400, 400])
        expect(seenByB.json.Errors[0].Message).toBe(seenByA.json.Errors[0].Message)
        expect(seenByA.json.Errors[0].Message).toContain('was deleted')
        // An approval that came second was refused; one that came first gave a code whose token reads nothing.
        if (approval.code) {
          const token = (await tppA.exchangeCode(client, approval.code)).json?.access_token as string | undefined
          if (token) expect((await call(b.baseUrl, 'GET', `${AIS}/accounts`, token)).status).toBe(403)
        } else expect(['access_denied', 'invalid_request']).toContain(approval.params.get('error'))
      }
    })

    it('one authorisation code redeemed on both at once: one token, the other invalid_grant', async () => {
      const cc = await tppA.clientCredentials(client, 'accounts')
      const body = JSON.stringify({ Data: { Permissions: ['ReadAccountsBasic'] }, Risk: {} })
      for (let round = 0; round < 3; round++) {
        const created = await call(b.baseUrl, 'POST', `${AIS}/account-access-consents`, cc, {}, body)
        expect(created.status, created.text).toBe(201)
        const auth = await tppA.authoriseHeadless(client, created.json.Data.ConsentId as string, 'openid accounts')
        const answers = await Promise.all([
          tppA.exchangeCode(client, auth.code!),
          tppB.exchangeCode(client, auth.code!),
        ])
        expect(answers.map((r) => r.status).sort()).toEqual([200, 400])
        const refused = answers.find((r) => r.status === 400)!
        expect(refused.json.error).toBe('invalid_grant')
        expect(refused.json.error_description).toContain('authorization code already consumed')
        // The token issued reads alike through either instance: accounts, or 401 when the losing request
        // read the code already consumed and revoked its grant (oidc-provider's reuse detection, RFC 6749 4.1.2).
        const token = answers.find((r) => r.status === 200)!.json.access_token as string
        const reads = await Promise.all([a, b].map((i) => call(i.baseUrl, 'GET', `${AIS}/accounts`, token)))
        expect([200, 401]).toContain(reads[0]!.status)
        expect(reads[1]!.status).toBe(reads[0]!.status)
      }
    })

    it('one client-assertion jti presented to both at once: one token, the other invalid_client', async () => {
      const jti = randomUUID()
      const answers = await Promise.all(
        [tppA, tppB].map((t) =>
          t.tokenRequest(
            client,
            { grant_type: 'client_credentials', scope: 'accounts' },
            { assertionOverrides: { jti } },
          ),
        ),
      )
      expect(answers.map((r) => r.status).sort()).toEqual([200, 401])
      expect(answers.find((r) => r.status === 401)!.json.error).toBe('invalid_client')
    })

    it('a client registered on one instance gets tokens from the other, and its deletion on one is seen by both', async () => {
      const other = await tppB.register({ overrides: { sandbox_profile: 'strict-headless' } })
      const token = await tppA.clientCredentials(other, 'accounts')
      const body = JSON.stringify({ Data: { Permissions: ['ReadAccountsBasic'] }, Risk: {} })
      expect((await call(b.baseUrl, 'POST', `${AIS}/account-access-consents`, token, {}, body)).status).toBe(201)
      const management = `${await tppB.registrationEndpoint()}/${other.clientId}`
      const deleted = await tppB.call('DELETE', management, {
        headers: { authorization: `Bearer ${await tppB.clientCredentials(other, 'accounts')}` },
      })
      expect(deleted.status, deleted.text).toBe(204)
      for (const i of [a, b])
        expect((await call(i.baseUrl, 'POST', `${AIS}/account-access-consents`, token, {}, body)).status).toBe(401)
    })

    it('a payment made through one instance is in the transactions AIS shows through the other', async () => {
      const cc = await tppA.clientCredentials(client, 'accounts')
      const body = JSON.stringify({
        Data: { Permissions: ['ReadAccountsBasic', 'ReadTransactionsDetail', 'ReadTransactionsDebits'] },
        Risk: {},
      })
      const created = await call(a.baseUrl, 'POST', `${AIS}/account-access-consents`, cc, {}, body)
      expect(created.status, created.text).toBe(201)
      const auth = await tppA.authoriseHeadless(client, created.json.Data.ConsentId as string, 'openid accounts')
      const aisToken = (await tppA.exchangeCode(client, auth.code!)).json.access_token as string
      const present = { 'x-fapi-customer-ip-address': '203.0.113.7' }
      const accounts = await call(b.baseUrl, 'GET', `${AIS}/accounts`, aisToken, present)
      expect(accounts.status, accounts.text).toBe(200)
      const ids = (accounts.json.Data.Account as Array<{ AccountId: string }>).map((x) => x.AccountId)
      // Transactions of this amount to ACME Ltd, on every account of the consent, as instance B shows them.
      const seenOnB = async () => {
        let n = 0
        for (const id of ids) {
          const page = await call(b.baseUrl, 'GET', `${AIS}/accounts/${id}/transactions`, aisToken, present)
          expect(page.status, page.text).toBe(200)
          const all = page.json.Data.Transaction as Array<{
            Amount: { Amount: string }
            TransactionInformation?: string
          }>
          n += all.filter((t) => t.Amount.Amount === '7.13' && t.TransactionInformation?.startsWith('ACME LTD')).length
        }
        return n
      }
      const before = await seenOnB()
      const { token, payment } = await authorisedPayment('7.13')
      const made = await call(
        a.baseUrl,
        'POST',
        `${PIS}/domestic-payments`,
        token,
        { 'x-idempotency-key': randomUUID(), 'x-jws-signature': signDetached(payment, signer) },
        payment,
      )
      expect(made.status, made.text).toBe(201)
      expect(await seenOnB()).toBe(before + 1)
    })
  })
}
