import { randomUUID } from 'node:crypto'
import type { AccountDataDto, ResourceOutcomeDto, TransactionViewDto } from '../../contract/ais-data.ts'
import type { AisFlowInput } from '../../contract/api.ts'
import { AppError } from '../../core/app-error.ts'
import { bearerGet } from '../common/bank-get.ts'
import {
  authorisationUrlStep,
  captureStep,
  codeExchangeStep,
  CODE_EXCHANGE_STEP,
  idTokenStep,
} from '../common/authorisation.ts'
import { discoveryStep } from '../common/discovery.ts'
import { obAnswerShape, readBankAnswer } from '../common/bank-answer.ts'
import { clientCredentialsStep, CLIENT_CREDENTIALS_STEP, type TokenSet } from '../common/tokens.ts'
import type { FlowContext, FlowResponse } from '../flow-context.ts'
import type { StepDefinition, StepScope } from '../step-machine.ts'
import { followPages, type ObPage } from './pagination.ts'
import { checkPermissions } from './permissions.ts'
import type { ExemptEndpoint, PsuAbsentBudget } from './psu-absent-budget.ts'
import { matchPendingToBooked, toTransactionView, type ObTransaction } from './transaction-matching.ts'

export interface AisFlowContext extends FlowContext {
  ais: {
    input: AisFlowInput
    budget: PsuAbsentBudget
    /** Pending transactions seen on earlier runs, per account, to match them once booked. */
    seenPending: Map<string, TransactionViewDto[]>
  }
}

export const AIS_STEPS = {
  consent: 'consent',
  accounts: 'accounts',
  balances: 'balances',
  transactions: 'transactions',
  resources: 'other-resources',
} as const

/** Resources read per account after the four exempt ones, and the products they are empty for (the bank's spec, section 7). */
const OTHER_RESOURCES: Array<{
  path: string
  dataKey: string
  permission: string[]
  emptyFor?: { type: string; sentence: string }
}> = [
  {
    path: 'beneficiaries',
    dataKey: 'Beneficiary',
    permission: ['ReadBeneficiariesBasic', 'ReadBeneficiariesDetail'],
    emptyFor: {
      type: 'CARD',
      sentence:
        'The bank returns no beneficiaries for a credit card: only the current account has them (product rule).',
    },
  },
  {
    path: 'direct-debits',
    dataKey: 'DirectDebit',
    permission: ['ReadDirectDebits'],
    emptyFor: {
      type: 'CARD',
      sentence:
        'The bank returns no direct debits for a credit card: only the current account has them (product rule).',
    },
  },
  {
    path: 'standing-orders',
    dataKey: 'StandingOrder',
    permission: ['ReadStandingOrdersBasic', 'ReadStandingOrdersDetail'],
    emptyFor: {
      type: 'CARD',
      sentence:
        'The bank returns no standing orders for a credit card: only the current account has them (product rule).',
    },
  },
  {
    path: 'offers',
    dataKey: 'Offer',
    permission: ['ReadOffers'],
    emptyFor: {
      type: 'CACC',
      sentence: 'The bank returns no offers for a current account: only the credit card has them (product rule).',
    },
  },
  {
    path: 'statements',
    dataKey: 'Statement',
    permission: ['ReadStatementsBasic', 'ReadStatementsDetail'],
    emptyFor: {
      type: 'CACC',
      sentence: 'The bank returns no statements for a current account: only the credit card has them (product rule).',
    },
  },
  { path: 'party', dataKey: 'Party', permission: ['ReadParty'] },
]

const STRING = { type: 'string', minLength: 1 }

/** The parts of each v4.0 answer the AIS steps read. */
const ANSWERS = {
  consent: obAnswerShape('an account access consent (OBReadConsentResponse1)', {
    type: 'object',
    required: ['ConsentId', 'Status'],
    properties: { ConsentId: STRING, Status: STRING, Permissions: { type: 'array', items: { type: 'string' } } },
  }),
  accounts: obAnswerShape('an account list (OBReadAccount6)', {
    type: 'object',
    required: ['Account'],
    properties: {
      Account: {
        type: 'array',
        items: {
          type: 'object',
          required: ['AccountId'],
          properties: { AccountId: STRING, AccountTypeCode: { type: 'string' } },
        },
      },
    },
  }),
  balances: obAnswerShape('a balance list (OBReadBalance1)', {
    type: 'object',
    required: ['Balance'],
    properties: {
      Balance: {
        type: 'array',
        items: {
          type: 'object',
          required: ['Type', 'Amount'],
          properties: {
            Type: STRING,
            Amount: {
              type: 'object',
              required: ['Amount', 'Currency'],
              properties: { Amount: STRING, Currency: STRING },
            },
          },
        },
      },
    },
  }),
  transactions: obAnswerShape('a page of transactions (OBReadTransaction6)', {
    type: 'object',
    properties: {
      Transaction: {
        type: 'array',
        items: {
          type: 'object',
          properties: { TransactionId: { type: 'string' }, Status: { type: 'string' }, Amount: { type: 'object' } },
        },
      },
    },
  }),
  resource: obAnswerShape('a v4.0 resource list', { type: 'object' }),
}

function aisUrl(ctx: FlowContext, path: string): string {
  return `${ctx.environment.baseUrl}${ctx.environment.apiPaths.ais}${path}`
}

/** The PSU's IP address, sent only when the PSU is present and the address is known (it lifts the PSU-absent cap). */
function psuHeaders(ctx: AisFlowContext): Record<string, string> {
  const ip = ctx.ais.input.psuIpAddress?.trim()
  return ctx.ais.input.psuPresent && ip ? { 'x-fapi-customer-ip-address': ip } : {}
}

/** `counted`: the exempt endpoint this call counts against when the PSU is absent (null: not an exempt endpoint). */
async function getData(
  ctx: AisFlowContext,
  scope: StepScope,
  path: string,
  label: string,
  counted: { account?: string; endpoint: ExemptEndpoint } | null,
): Promise<FlowResponse> {
  const token = scope.output<TokenSet>(CODE_EXCHANGE_STEP).accessToken
  const consentId = scope.output<{ consentId: string }>(AIS_STEPS.consent).consentId
  if (!ctx.ais.input.psuPresent && counted) {
    const left = ctx.ais.budget.budget(consentId, counted.account, counted.endpoint)
    if (left.remaining === 0) {
      throw new AppError('INVALID_INPUT', {
        what: `No PSU-absent calls left for ${counted.account ? `${counted.endpoint} of account ${counted.account}` : 'the account list'} of consent ${consentId}.`,
        cause: `The bank allows 4 calls in 24 hours without the PSU present; the next is allowed at ${left.nextSlotAt}.`,
        fix: 'Wait until then, or mark the PSU as present (only when the PSU is actively using your app).',
      })
    }
  }
  const res = await bearerGet(ctx, scope, aisUrl(ctx, path), token, label, psuHeaders(ctx))
  if (!ctx.ais.input.psuPresent && counted && res.status === 200)
    ctx.ais.budget.record(consentId, counted.account, counted.endpoint)
  return res
}

function consentStep(): StepDefinition<AisFlowContext> {
  return {
    id: AIS_STEPS.consent,
    title: 'Account access consent',
    explanation:
      'Creates the account access consent (the permissions the PSU will be asked to grant) with the client-credentials token.',
    requires: [CLIENT_CREDENTIALS_STEP],
    async run(ctx, scope) {
      const { input } = ctx.ais
      const problems = checkPermissions(input.permissions).filter((c) => !c.pass)
      if (problems.length) {
        throw new AppError('INVALID_INPUT', {
          what: 'The permissions break the v4.0 rules, so the bank would reject the consent.',
          cause: problems.map((p) => `${p.name}: ${p.actual}`).join('; '),
          fix: problems[0]!.hint ?? 'Fix the permissions.',
        })
      }
      const body = JSON.stringify({
        Data: {
          Permissions: input.permissions,
          ...(input.expirationDateTime ? { ExpirationDateTime: input.expirationDateTime } : {}),
          ...(input.transactionFromDateTime ? { TransactionFromDateTime: input.transactionFromDateTime } : {}),
          ...(input.transactionToDateTime ? { TransactionToDateTime: input.transactionToDateTime } : {}),
        },
        Risk: {},
      })
      const cc = scope.output<TokenSet>(CLIENT_CREDENTIALS_STEP)
      const res = await ctx.http.send({
        method: 'POST',
        url: aisUrl(ctx, '/account-access-consents'),
        headers: {
          authorization: `Bearer ${cc.accessToken}`,
          'content-type': 'application/json',
          accept: 'application/json',
          'x-fapi-interaction-id': randomUUID(),
        },
        body,
        label: 'account access consent',
      })
      scope.exchange(res.exchangeId)
      const { Data } = readBankAnswer(res, {
        what: 'Creating the account access consent',
        status: 201,
        shape: ANSWERS.consent,
        fix: 'Check the permissions and dates against the v4.0 rules in the error, and that the token has the accounts scope.',
      })
      const consentId = Data.ConsentId as string
      return {
        output: {
          consentId,
          status: Data.Status,
          ...(typeof Data.ExpirationDateTime === 'string' ? { expirationDateTime: Data.ExpirationDateTime } : {}),
        },
        summary: `consent ${consentId} ${Data.Status}`,
        checks: [
          { name: 'consent status', pass: Data.Status === 'AWAU', expected: 'AWAU', actual: String(Data.Status) },
        ],
      }
    },
  }
}

interface AccountsOutput {
  accounts: Array<Record<string, any>> // eslint-disable-line @typescript-eslint/no-explicit-any
}

function accountsStep(): StepDefinition<AisFlowContext> {
  return {
    id: AIS_STEPS.accounts,
    title: 'Accounts',
    explanation:
      'Reads the accounts the PSU chose to share (only the current account and the credit card can be shared).',
    requires: [AIS_STEPS.consent, CODE_EXCHANGE_STEP],
    async run(ctx, scope) {
      const res = await getData(ctx, scope, '/accounts', 'accounts', { endpoint: 'accounts' })
      const accounts = readBankAnswer(res, {
        what: 'Reading the accounts',
        status: 200,
        shape: ANSWERS.accounts,
        fix: 'Check the consent is authorised and has ReadAccountsBasic or ReadAccountsDetail.',
      }).Data.Account as AccountsOutput['accounts']
      const types = accounts.map((a) => a.AccountTypeCode)
      return {
        output: { accounts } satisfies AccountsOutput,
        summary: `${accounts.length} account${accounts.length === 1 ? '' : 's'}: ${types.join(', ')}`,
        checks: [
          {
            name: 'only shareable products',
            pass: types.every((t) => t === 'CACC' || t === 'CARD'),
            expected: 'CACC or CARD',
            actual: types.join(', ') || 'none',
            hint: 'The bank shares only the current account and the credit card through AIS.',
          },
        ],
      }
    },
  }
}

function balancesStep(): StepDefinition<AisFlowContext> {
  return {
    id: AIS_STEPS.balances,
    title: 'Balances',
    explanation:
      "Reads each account's interim available (ITAV) balance; the credit card also returns its credit limit.",
    requires: [AIS_STEPS.accounts],
    async run(ctx, scope) {
      const { accounts } = scope.output<AccountsOutput>(AIS_STEPS.accounts)
      const out: Record<string, unknown[]> = {}
      if (!ctx.ais.input.permissions.includes('ReadBalances'))
        return { output: out, skipped: true, summary: 'skipped: the consent has no ReadBalances permission' }
      for (const a of accounts) {
        const res = await getData(
          ctx,
          scope,
          `/accounts/${encodeURIComponent(a.AccountId)}/balances`,
          `balances ${a.AccountId}`,
          { account: a.AccountId, endpoint: 'balances' },
        )
        out[a.AccountId] = readBankAnswer(res, {
          what: `Reading the balances of ${a.AccountId}`,
          status: 200,
          shape: ANSWERS.balances,
          fix: 'Check the consent has ReadBalances.',
        }).Data.Balance
      }
      const all = Object.values(out).flat() as Array<Record<string, unknown>>
      return {
        output: out,
        summary: `${all.length} balance${all.length === 1 ? '' : 's'}`,
        checks: [
          {
            name: 'ITAV balance type',
            pass: all.length > 0 && all.every((b) => b.Type === 'ITAV'),
            expected: 'ITAV',
            actual: [...new Set(all.map((b) => String(b.Type)))].join(', ') || 'none',
          },
        ],
      }
    },
  }
}

/**
 * The transactions step's output, per account: what was read (transactions, pending ones, pages, why it
 * stopped, pending-to-booked matches), not the rows. Every progress event and state read carries a step's
 * output, and a flow keeps it as long as the flow is kept (up to 50 flows): the rows are built on demand
 * (`rowsOf`), from the pages in the exchange log, one exchange per page.
 */
interface TransactionsOutput {
  [accountId: string]: {
    total: number
    pending: number
    pages: number
    stoppedBecause: string
    matches: Array<[string, string]>
  }
}

/**
 * One account's pages of transactions: the exchanges that brought them (their bodies are the exchange
 * log's, read back through `responseBody`) until their rows are built, then the rows.
 */
interface KeptTransactions {
  exchangeIds?: string[]
  responseBody: (exchangeId: string) => Uint8Array | undefined
  matches: ReadonlyMap<string, string>
  rows?: TransactionViewDto[]
}

/**
 * The pages behind each transactions output, found by the output object (and let go with it). The step
 * keeps no copy of the pages and builds no rows: 1,600 row objects per run cost a seventh of the step's
 * time, most of it the garbage collector moving rows nobody had looked at yet, and keeping the pages' texts
 * or bodies in the flow as well cost as much again (collections, or fresh memory for every run). The rows
 * are built from the responses the exchange log keeps when the data views first ask for them, and kept
 * from then on.
 */
const keptTransactions = new WeakMap<TransactionsOutput, Map<string, KeptTransactions>>()

/** The transactions of a page: `Data.Transaction`, which must be an array when present. */
function pageTransactions(page: ObPage, where: string): ObTransaction[] {
  const list = page.Data?.Transaction ?? []
  if (!Array.isArray(list))
    throw new AppError('BANK_ANSWER_INVALID', {
      what: `${where}: Data.Transaction is not a list.`,
      cause: `The bank answered ${JSON.stringify(list).slice(0, 80)} where OBReadTransaction6 has an array of transactions.`,
      fix: 'Report the response to the bank; the exchange log holds it.',
    })
  return list as ObTransaction[]
}

const decoder = new TextDecoder()

/** Booked rows show the pending id they were matched to (booked id -> pending id). */
function applyMatches(rows: TransactionViewDto[], matches: ReadonlyMap<string, string>): void {
  if (!matches.size) return
  for (const row of rows) {
    const pending = matches.get(row.transactionId)
    if (pending) row.matchedPendingId = pending
  }
}

/** The rows of kept pages, booked transactions showing the pending id they were matched to. */
function rowsOf(kept: KeptTransactions, accountId: string): TransactionViewDto[] {
  if (kept.rows) return kept.rows
  const rows: TransactionViewDto[] = []
  const ids = kept.exchangeIds ?? []
  for (let i = 0; i < ids.length; i++) {
    const body = kept.responseBody(ids[i]!)
    if (!body) {
      throw new AppError('NOT_FOUND', {
        what: `Showing the transactions of ${accountId} failed: page ${i + 1} of ${ids.length} is no longer in the exchange log (or was too large to keep whole).`,
        cause:
          'The data view builds its rows from the responses the exchange log keeps, and the log was cleared since, or has made room for newer exchanges.',
        fix: "Run the flow's Transactions step again: it reads every page afresh.",
      })
    }
    for (const t of pageTransactions(
      JSON.parse(decoder.decode(body)) as ObPage,
      `Page ${i + 1} of ${accountId}'s transactions`,
    ))
      rows.push(toTransactionView(t))
  }
  applyMatches(rows, kept.matches)
  kept.rows = rows
  kept.exchangeIds = undefined
  return rows
}

function transactionsStep(): StepDefinition<AisFlowContext> {
  return {
    id: AIS_STEPS.transactions,
    title: 'Transactions',
    explanation:
      "Reads every page of each account's transactions (100 a page), following Links.Next; pending transactions later booked under another id are matched.",
    requires: [AIS_STEPS.accounts],
    async run(ctx, scope) {
      const { accounts } = scope.output<AccountsOutput>(AIS_STEPS.accounts)
      const out: TransactionsOutput = {}
      if (!ctx.ais.input.permissions.some((p) => p.startsWith('ReadTransactions')))
        return { output: out, skipped: true, summary: 'skipped: the consent has no ReadTransactions* permission' }
      const kept = new Map<string, KeptTransactions>()
      let rowsSoFar = 0
      for (const [accountIndex, a] of accounts.entries()) {
        const first = aisUrl(ctx, `/accounts/${encodeURIComponent(a.AccountId)}/transactions`)
        const exchangeIds: string[] = []
        const pendingNow: TransactionViewDto[] = []
        let total = 0
        const result = await followPages(
          first,
          async (url) => {
            const pageNo = exchangeIds.length + 1
            const token = scope.output<TokenSet>(CODE_EXCHANGE_STEP).accessToken
            // The PSU-absent allowance counts the call, not each page of it.
            const res =
              pageNo === 1
                ? await getData(
                    ctx,
                    scope,
                    url.slice(ctx.environment.baseUrl.length + ctx.environment.apiPaths.ais.length),
                    `transactions ${a.AccountId} p1`,
                    { account: a.AccountId, endpoint: 'transactions' },
                  )
                : await bearerGet(ctx, scope, url, token, `transactions ${a.AccountId} p${pageNo}`, psuHeaders(ctx))
            const page = readBankAnswer<ObPage>(res, {
              what: `Reading page ${pageNo} of ${a.AccountId}'s transactions`,
              status: 200,
              shape: ANSWERS.transactions,
              fix: 'Check the consent has ReadTransactions* permissions; without the PSU present the bank returns only 90 days.',
            })
            const list = pageTransactions(page, `Page ${pageNo} of ${a.AccountId}'s transactions`)
            total += list.length
            rowsSoFar += list.length
            for (const t of list) if (t.Status === 'PDNG') pendingNow.push(toTransactionView(t))
            exchangeIds.push(res.exchangeId)
            const totalPages = page.Meta?.TotalPages
            scope.progress?.({
              label: `transactions of ${a.AccountId} (account ${accountIndex + 1} of ${accounts.length})`,
              page: pageNo,
              ...(typeof totalPages === 'number' && totalPages > 0 ? { pages: totalPages } : {}),
              rows: rowsSoFar,
            })
            return page
          },
          { label: `${a.AccountId}'s transactions` },
        )
        // A pending transaction seen on an earlier run and pending no more: match it to the booked one that
        // replaced it, which takes every row (rare: only then are the rows built now).
        const seen = ctx.ais.seenPending.get(a.AccountId) ?? []
        const pendingIds = new Set(pendingNow.map((t) => t.transactionId))
        const account: KeptTransactions = {
          exchangeIds,
          responseBody: (id) => ctx.http.responseBody(id),
          matches: new Map(),
        }
        if (seen.some((p) => p.status === 'PDNG' && !pendingIds.has(p.transactionId))) {
          const rows = rowsOf(account, a.AccountId)
          account.matches = matchPendingToBooked(rows, seen)
          applyMatches(rows, account.matches)
        }
        kept.set(a.AccountId, account)
        // Pending transactions to match on the next run: those pending now, once each, and those gone (so a
        // booked transaction shows its pending id on every later run too).
        ctx.ais.seenPending.set(a.AccountId, [...seen.filter((t) => !pendingIds.has(t.transactionId)), ...pendingNow])
        out[a.AccountId] = {
          total,
          pending: pendingNow.length,
          pages: result.pages,
          stoppedBecause: result.stoppedBecause,
          matches: [...account.matches],
        }
      }
      keptTransactions.set(out, kept)
      const total = Object.values(out).reduce((n, x) => n + x.total, 0)
      const pages = Object.values(out).reduce((n, x) => n + x.pages, 0)
      return {
        output: out,
        summary: `${total} transactions in ${pages} pages`,
        checks: Object.entries(out).map(([id, x]) => ({
          name: `all pages of ${id}`,
          pass: x.stoppedBecause === 'last-page',
          expected: 'last page reached',
          actual: x.stoppedBecause,
          hint: "The bank's pagination loops or exceeds the page cap.",
        })),
      }
    },
  }
}

function resourcesStep(): StepDefinition<AisFlowContext> {
  return {
    id: AIS_STEPS.resources,
    title: 'Other resources',
    explanation:
      'Reads beneficiaries, direct debits, standing orders, offers, statements and party for each account; some are empty by product rule.',
    requires: [AIS_STEPS.accounts],
    async run(ctx, scope) {
      if (!ctx.ais.input.psuPresent) {
        return {
          output: {},
          skipped: true,
          summary: 'skipped: only the four exempt endpoints may be called with the PSU absent',
        }
      }
      const { accounts } = scope.output<AccountsOutput>(AIS_STEPS.accounts)
      const consent = scope.output<{ consentId: string }>(AIS_STEPS.consent)
      const granted = new Set(ctx.ais.input.permissions)
      const out: Record<string, ResourceOutcomeDto[]> = {}
      for (const a of accounts) {
        out[a.AccountId] = []
        for (const r of OTHER_RESOURCES) {
          if (!r.permission.some((p) => granted.has(p))) continue
          const res = await getData(
            ctx,
            scope,
            `/accounts/${encodeURIComponent(a.AccountId)}/${r.path}`,
            `${r.path} ${a.AccountId}`,
            null,
          )
          const data = readBankAnswer(res, {
            what: `Reading ${r.path} of ${a.AccountId}`,
            status: 200,
            shape: ANSWERS.resource,
            fix: `Check consent ${consent.consentId} has ${r.permission.join(' or ')}.`,
          }).Data[r.dataKey]
          const count = Array.isArray(data) ? data.length : data ? 1 : 0
          const ruled =
            count === 0 && r.emptyFor && r.emptyFor.type === a.AccountTypeCode ? r.emptyFor.sentence : undefined
          out[a.AccountId]!.push({
            resource: r.path,
            status: res.status,
            count,
            ...(ruled ? { emptyByProductRule: ruled } : {}),
            exchangeId: res.exchangeId,
          })
        }
      }
      const ruled = Object.values(out)
        .flat()
        .filter((o) => o.emptyByProductRule).length
      return { output: out, summary: `${Object.values(out).flat().length} reads, ${ruled} empty by product rule` }
    },
  }
}

/** The AIS journey of the bank's spec, section 5.5, as explicit steps. */
export function aisFlowSteps(input: AisFlowInput): StepDefinition<AisFlowContext>[] {
  return [
    discoveryStep(),
    clientCredentialsStep('accounts'),
    consentStep(),
    authorisationUrlStep({
      scope: 'accounts',
      consentStep: AIS_STEPS.consent,
      consentIdOf: (o) => (o as { consentId: string }).consentId,
      via: input.authorisationUrlFrom,
    }),
    captureStep(),
    idTokenStep(),
    codeExchangeStep(),
    accountsStep(),
    balancesStep(),
    transactionsStep(),
    resourcesStep(),
  ] as StepDefinition<AisFlowContext>[]
}

/** The data views' shape, assembled from the steps that have run. */
export function accountData(outputs: { has(id: string): boolean; output<T>(id: string): T }): AccountDataDto[] {
  if (!outputs.has(AIS_STEPS.accounts)) return []
  const { accounts } = outputs.output<AccountsOutput>(AIS_STEPS.accounts)
  const balances = outputs.has(AIS_STEPS.balances)
    ? outputs.output<Record<string, Array<Record<string, unknown>>>>(AIS_STEPS.balances)
    : {}
  const txs = outputs.has(AIS_STEPS.transactions) ? outputs.output<TransactionsOutput>(AIS_STEPS.transactions) : {}
  const resources = outputs.has(AIS_STEPS.resources)
    ? outputs.output<Record<string, ResourceOutcomeDto[]>>(AIS_STEPS.resources)
    : {}
  return accounts.map((a) => {
    const t = txs[a.AccountId]
    const kept = keptTransactions.get(txs)?.get(a.AccountId)
    return {
      accountId: a.AccountId,
      accountTypeCode: a.AccountTypeCode,
      nickname: a.Nickname,
      currency: a.Currency,
      account: a,
      balances: balances[a.AccountId] ?? [],
      transactions: {
        items: kept ? rowsOf(kept, a.AccountId) : [],
        pages: t?.pages ?? 0,
        total: t?.total ?? 0,
        pendingMatched: t?.matches.length ?? 0,
      },
      resources: resources[a.AccountId] ?? [],
    }
  })
}
