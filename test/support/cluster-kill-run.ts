/**
 * The kill run of a sandbox cluster (sandbox-cluster.ts): while PIS journeys run through the balancer with
 * retries, one instance after another is SIGKILLed and started again; afterwards the store, every instance
 * and the ledgers are checked. The cluster test asserts on its counts; the P10 benchmark reports them.
 *
 * A journey is what a careful TPP does: the consent POST and the payment POST each keep one idempotency key
 * and one signed body across their retries; a request cut by a kill (connection reset or closed) or refused
 * is sent again; the authorisation is started again from the top when a hop is cut. A journey is abandoned,
 * and counted as such, only when an answer was lost after the bank acted on it and the protocol forbids a
 * second try (the consent already authorised, the code already redeemed): the TPP then starts a new one.
 */
import { randomUUID } from 'node:crypto'
import { createRequire } from 'node:module'
import type * as Pg from 'pg'
import { signDetached, type TppSigner } from '../integration/local-sandbox/pis/support/detached-sign.ts'
import { consentBody, paymentBody } from '../integration/local-sandbox/pis/support/pis-bodies.ts'
import {
  TestTpp,
  type HttpResponse,
  type RegisteredTestClient,
  type TppKit,
} from '../integration/local-sandbox/support/test-tpp.ts'
import type { SandboxCluster } from './sandbox-cluster.ts'

const pg = createRequire(import.meta.url)('pg') as typeof Pg
const PIS = '/open-banking/v4.0/pisp'
const AIS = '/open-banking/v4.0/aisp'
/** The amount of every payment of a kill run: its debits are counted by it in the transactions. */
export const KILL_RUN_AMOUNT = '1.17'

export interface KillRunOptions {
  /** How long journeys are started (those under way then finish). */
  durationMs: number
  /** A kill every this many ms (the killed instance is started again at once). */
  killEveryMs: number
  /** Journeys in flight at once. */
  workers: number
}

export interface KillRunResult {
  journeys: number
  /** Payments the bank acknowledged (201). */
  acknowledged: number
  /** Journeys given up, by reason (an answer lost after the bank acted on it). */
  abandoned: Record<string, number>
  /** Requests sent again after their connection was cut or refused. */
  retries: number
  /** 5xx answers (each retried). */
  serverErrors: number
  kills: number
  /** Each restart: spawn to /readyz 200, ms. */
  restartMs: number[]
  /** The second payment with a new idempotency key on a consent already paid: answers refused (4xx) of tried. */
  secondPayments: { tried: number; refused: number }
  /** From the store: payments on this run's consents, those with more than one per consent, those not acknowledged. */
  store: { payments: number; duplicateConsents: number; unacknowledged: number }
  /** Acknowledged payments the store does not hold, or an instance cannot show. */
  missing: number
  /**
   * Each instance's view of the headless PSU's balances (JSON, without each balance's DateTime: the time of
   * the read), whether all agree, and how far each instance's sum of them (pence, credit positive) fell
   * during the run.
   */
  balances: { agree: boolean; views: string[]; fallPence: number[] }
  /** Debits of KILL_RUN_AMOUNT in the debtor accounts' transactions, as each instance shows them. */
  debitsSeen: number[]
}

class Lost extends Error {}

/** Network failures a client retries: the connection was refused, reset or closed by a killed instance. */
function retryable(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string }; message?: string }
  const code = e.code ?? e.cause?.code ?? ''
  return (
    /^(ECONNRESET|ECONNREFUSED|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED|ERR_SSL_|UND_ERR_CONNECT_TIMEOUT)/.test(code) ||
    /other side closed|socket hang up|Client network socket disconnected|before secure TLS connection/.test(
      e.message ?? '',
    )
  )
}

export async function runKillTest(cluster: SandboxCluster, options: KillRunOptions): Promise<KillRunResult> {
  const kit = (await cluster.onboard(['AISP', 'PISP'])) as TppKit
  const tpp = new TestTpp({ ...cluster.front, caBundlePem: cluster.caBundlePem }, kit, { freshConnections: true })
  const signer: TppSigner = {
    kid: kit.signingKid,
    privateKey: await tpp.signingKey(),
    iss: `${kit.orgId}/${kit.softwareId}`,
  }
  const result: KillRunResult = {
    journeys: 0,
    acknowledged: 0,
    abandoned: {},
    retries: 0,
    serverErrors: 0,
    kills: 0,
    restartMs: [],
    secondPayments: { tried: 0, refused: 0 },
    store: { payments: 0, duplicateConsents: 0, unacknowledged: 0 },
    missing: 0,
    balances: { agree: false, views: [], fallPence: [] },
    debitsSeen: [],
  }
  /** consent → the payment ids acknowledged for it (more than one would be a duplicate). */
  const paid = new Map<string, Set<string>>()
  /** Every consent the run created, paid or not. */
  const consents: string[] = []

  /** `attempt` until it answers below 500 or throws something other than a cut connection. */
  async function retried(attempt: () => Promise<HttpResponse>): Promise<HttpResponse> {
    for (let n = 0; ; n++) {
      try {
        const res = await attempt()
        if (res.status < 500) return res
        result.serverErrors++
      } catch (err) {
        if (!retryable(err) || n >= 30) throw err
      }
      result.retries++
      await new Promise((r) => setTimeout(r, 50 + 20 * n))
    }
  }

  const client: RegisteredTestClient = await tpp.register({
    overrides: { sandbox_profile: 'strict-headless', scope: 'openid payments' },
  })
  const ccToken = async () => {
    const res = await retried(() => tpp.tokenRequest(client, { grant_type: 'client_credentials', scope: 'payments' }))
    if (res.status !== 200) throw new Error(`client_credentials answered ${res.status}: ${res.text}`)
    return res.json.access_token as string
  }
  const post = (path: string, token: string, body: string, key: string, signature: string) =>
    tpp.call('POST', `${cluster.front.baseUrl}${PIS}${path}`, {
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'x-idempotency-key': key,
        'x-jws-signature': signature,
      },
      body,
    })

  async function journey(cc: string): Promise<void> {
    result.journeys++
    const consent = consentBody(KILL_RUN_AMOUNT)
    const consentText = JSON.stringify(consent)
    const consentKey = randomUUID()
    const consentSignature = signDetached(consentText, signer)
    const created = await retried(() =>
      post('/domestic-payment-consents', cc, consentText, consentKey, consentSignature),
    )
    if (created.status !== 201) throw new Error(`consent answered ${created.status}: ${created.text}`)
    const consentId = created.json.Data.ConsentId as string
    consents.push(consentId)

    // The authorisation: a cut hop starts it again; a consent already authorised means its answer was lost.
    let code: string | undefined
    for (let n = 0; code === undefined; n++) {
      try {
        const auth = await tpp.authoriseHeadless(client, consentId, 'openid payments')
        if (auth.code) code = auth.code
        else
          throw new Lost(`authorisation answered ${auth.params.get('error')}: ${auth.params.get('error_description')}`)
      } catch (err) {
        if (err instanceof Lost) throw err
        if (!retryable(err) || n >= 30) throw err
        result.retries++
      }
    }
    const tokens = await retried(() => tpp.exchangeCode(client, code))
    if (tokens.status !== 200) throw new Lost(`code exchange answered ${tokens.status} ${tokens.json?.error}`)
    const token = tokens.json.access_token as string

    const payment = JSON.stringify(paymentBody(consentId, consent))
    const paymentKey = randomUUID()
    const paymentSignature = signDetached(payment, signer)
    const made = await retried(() => post('/domestic-payments', token, payment, paymentKey, paymentSignature))
    if (made.status !== 201) throw new Error(`payment answered ${made.status}: ${made.text}`)
    result.acknowledged++
    const ids = paid.get(consentId) ?? new Set<string>()
    ids.add(made.json.Data.DomesticPaymentId as string)
    paid.set(consentId, ids)

    // A second payment on the same consent with a new key must be refused, whichever instance answers.
    result.secondPayments.tried++
    const second = await retried(() =>
      post('/domestic-payments', token, payment, randomUUID(), signDetached(payment, signer)),
    )
    if (second.status >= 400 && second.status < 500) result.secondPayments.refused++
    else if (second.status === 201) {
      ids.add(second.json.Data.DomesticPaymentId as string)
    }
  }

  const view = await aisView(cluster, tpp)
  const deadline = performance.now() + options.durationMs
  let killing = true
  const killer = (async () => {
    for (let victim = 0; killing; victim = (victim + 1) % cluster.instances.length) {
      await new Promise((r) => setTimeout(r, options.killEveryMs))
      if (!killing) break
      await cluster.kill(victim)
      result.kills++
      result.restartMs.push(await cluster.start(victim))
    }
  })()
  try {
    await Promise.all(
      Array.from({ length: options.workers }, async () => {
        const cc = await ccToken()
        while (performance.now() < deadline) {
          try {
            await journey(cc)
          } catch (err) {
            if (!(err instanceof Lost)) throw err
            const reason = err.message.replace(/[0-9a-f-]{36}/g, '…')
            result.abandoned[reason] = (result.abandoned[reason] ?? 0) + 1
          }
        }
      }),
    )
  } finally {
    killing = false
    await killer
  }

  await checkStore(cluster.storeUrl, consents, paid, result)
  await checkInstances(cluster, tpp, await ccToken(), view, paid, result)
  await tpp.close()
  return result
}

/** What the store holds for the run's consents against what the bank acknowledged. */
async function checkStore(
  storeUrl: string,
  consents: string[],
  paid: Map<string, Set<string>>,
  result: KillRunResult,
): Promise<void> {
  const db = new pg.Client({ connectionString: storeUrl })
  await db.connect()
  try {
    const rows = (
      await db.query<{ domestic_payment_id: string; consent_id: string }>(
        'SELECT domestic_payment_id, consent_id FROM payments WHERE consent_id = ANY($1)',
        [consents],
      )
    ).rows
    const acknowledged = new Set([...paid.values()].flatMap((s) => [...s]))
    const perConsent = new Map<string, number>()
    for (const r of rows) perConsent.set(r.consent_id, (perConsent.get(r.consent_id) ?? 0) + 1)
    result.store.payments = rows.length
    // More than one payment for a consent, in the store or in what the bank acknowledged.
    result.store.duplicateConsents = new Set([
      ...[...perConsent].filter(([, n]) => n > 1).map(([c]) => c),
      ...[...paid].filter(([, ids]) => ids.size > 1).map(([c]) => c),
    ]).size
    result.store.unacknowledged = rows.filter((r) => !acknowledged.has(r.domestic_payment_id)).length
    const held = new Set(rows.map((r) => r.domestic_payment_id))
    result.missing = [...acknowledged].filter((id) => !held.has(id)).length
  } finally {
    await db.end()
  }
}

/** An AIS token (headless PSU, every account) to read balances and debits with, and those debits now. */
interface AisView {
  token: string
  debitsBefore: number
  penceBefore: number
}

async function aisView(cluster: SandboxCluster, tpp: TestTpp): Promise<AisView> {
  const ais = await tpp.register({ overrides: { sandbox_profile: 'strict-headless', scope: 'openid accounts' } })
  const cc = await tpp.clientCredentials(ais, 'accounts')
  const consent = await tpp.call('POST', `${cluster.front.baseUrl}${AIS}/account-access-consents`, {
    headers: { authorization: `Bearer ${cc}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      Data: { Permissions: ['ReadAccountsBasic', 'ReadBalances', 'ReadTransactionsBasic', 'ReadTransactionsDebits'] },
      Risk: {},
    }),
  })
  if (consent.status !== 201) throw new Error(`AIS consent answered ${consent.status}: ${consent.text}`)
  const auth = await tpp.authoriseHeadless(ais, consent.json.Data.ConsentId as string, 'openid accounts')
  const token = (await tpp.exchangeCode(ais, auth.code!)).json.access_token as string
  const before = await readLedgers(tpp, cluster.front.baseUrl, token)
  return { token, debitsBefore: before.debits, penceBefore: before.pence }
}

/** Balances of every account of the AIS consent and the KILL_RUN_AMOUNT debits, as `baseUrl` shows them. */
async function readLedgers(
  tpp: TestTpp,
  baseUrl: string,
  token: string,
): Promise<{ balances: string; pence: number; debits: number }> {
  const headers = { authorization: `Bearer ${token}`, 'x-fapi-customer-ip-address': '198.51.100.23' }
  const get = async (path: string) => {
    const res = await tpp.call('GET', `${baseUrl}${path}`, { headers })
    if (res.status !== 200) throw new Error(`GET ${baseUrl}${path} answered ${res.status}: ${res.text}`)
    return res
  }
  const accounts = await get(`${AIS}/accounts`)
  const ids = (accounts.json.Data.Account as Array<{ AccountId: string }>).map((a) => a.AccountId)
  // Every balance first, then the transactions: the instances' balances are compared as read at one moment.
  const balances: unknown[] = []
  let pence = 0
  for (const id of ids) {
    const list = (await get(`${AIS}/accounts/${id}/balances`)).json.Data.Balance as Array<{
      DateTime?: string
      CreditDebitIndicator: string
      Amount: { Amount: string }
    }>
    for (const b of list) {
      delete b.DateTime
      pence += Math.round(Number(b.Amount.Amount) * 100) * (b.CreditDebitIndicator === 'Credit' ? 1 : -1)
    }
    balances.push(list)
  }
  let debits = 0
  for (const id of ids) {
    let next: string | undefined = `${AIS}/accounts/${id}/transactions`
    while (next) {
      const page = await get(next)
      const list = page.json.Data.Transaction as Array<{ Amount: { Amount: string }; CreditDebitIndicator: string }>
      debits += list.filter((t) => t.Amount.Amount === KILL_RUN_AMOUNT && t.CreditDebitIndicator === 'Debit').length
      const link = page.json.Links.Next as string | undefined
      next = link && new URL(link).pathname + new URL(link).search
    }
  }
  return { balances: JSON.stringify(balances), pence, debits }
}

/** Every instance, reached directly: shows every acknowledged payment, and the same balances and debits. */
async function checkInstances(
  cluster: SandboxCluster,
  tpp: TestTpp,
  pisCc: string,
  view: AisView,
  paid: Map<string, Set<string>>,
  result: KillRunResult,
): Promise<void> {
  const acknowledged = [...paid.values()].flatMap((s) => [...s])
  let unseen = 0
  for (const instance of cluster.instances) {
    for (const id of acknowledged) {
      const res = await tpp.call('GET', `${instance.direct.baseUrl}${PIS}/domestic-payments/${id}`, {
        headers: { authorization: `Bearer ${pisCc}` },
      })
      if (res.status !== 200) unseen++
    }
  }
  result.missing += unseen
  // The instances read together: the bank's generated history goes on with the clock (a card purchase at its
  // time of day), so balances read seconds apart may differ with every instance right. Read again, at most
  // twice, when one landed between the reads.
  for (let attempt = 1; ; attempt++) {
    const ledgers = await Promise.all(
      cluster.instances.map((instance) => readLedgers(tpp, instance.direct.baseUrl, view.token)),
    )
    result.balances.views = ledgers.map((l) => l.balances)
    result.balances.fallPence = ledgers.map((l) => view.penceBefore - l.pence)
    result.debitsSeen = ledgers.map((l) => l.debits - view.debitsBefore)
    result.balances.agree = result.balances.views.every((v) => v === result.balances.views[0])
    if (result.balances.agree || attempt === 3) return
  }
}
