import type { TransactionViewDto } from '../../contract/ais-data.ts'
import { CODE_EXCHANGE_STEP } from '../common/authorisation.ts'
import { OB_AMOUNT, obAnswerShape, readBankAnswer } from '../common/bank-answer.ts'
import { apiUrl, bearerGet } from '../common/bank-requests.ts'
import type { OBReadTransaction6 } from '../../plumbing/ob-wire/account-info.ts'
import type { StepDefinition, StepOutcome } from '../step-machine.ts'
import { AIS_STEP_TEXT, AIS_STEPS, type AisFlowContext } from './ais-context.ts'
import { aisGet, psuHeaders } from './ais-get.ts'
import { followPages } from './pagination.ts'
import { matchPendingToBooked, toTransactionView } from './transaction-matching.ts'
import {
  applyMatches,
  keepTransactions,
  pageTransactions,
  rowsOf,
  type KeptTransactions,
  type TransactionsOutput,
} from './transaction-rows.ts'

/** The part of a page of transactions the step reads. */
const TRANSACTIONS_ANSWER = obAnswerShape<OBReadTransaction6>('a page of transactions (OBReadTransaction6)', {
  type: 'object',
  properties: {
    Transaction: {
      type: 'array',
      items: {
        type: 'object',
        properties: { TransactionId: { type: 'string' }, Status: { type: 'string' }, Amount: OB_AMOUNT },
      },
    },
  },
})

/**
 * What the step keeps of an account's pages (their exchanges, the rows of pages too large for the log). A pending
 * transaction seen on an earlier run and pending no more is matched to the booked one that replaced it, which
 * takes every row (rare: only then are the rows built now); the pending ones are remembered for the next run.
 */
function keptAccount(
  ctx: AisFlowContext,
  accountId: string,
  pages: { exchangeIds: string[]; heldRows: Array<TransactionViewDto[] | undefined>; pendingNow: TransactionViewDto[] },
): KeptTransactions {
  const { exchangeIds, heldRows, pendingNow } = pages
  const seen = ctx.ais.seenPending.get(accountId) ?? []
  const pendingIds = new Set(pendingNow.map((t) => t.transactionId))
  const account: KeptTransactions = {
    exchangeIds,
    ...(heldRows.length ? { heldRows } : {}),
    responseBody: (id) => ctx.http.responseBody(id),
    matches: new Map(),
  }
  if (seen.some((p) => p.status === 'PDNG' && !pendingIds.has(p.transactionId))) {
    const rows = rowsOf(account, accountId)
    account.matches = matchPendingToBooked(rows, seen)
    applyMatches(rows, account.matches)
  }
  // Pending transactions to match on the next run: those pending now, once each, and those gone (so a booked
  // transaction shows its pending id on every later run too).
  ctx.ais.seenPending.set(accountId, [...seen.filter((t) => !pendingIds.has(t.transactionId)), ...pendingNow])
  return account
}

/** The step's outcome: its counts in words, and a check per account that every page was read. */
function outcome(out: TransactionsOutput): StepOutcome<TransactionsOutput> {
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
}

/**
 * Step: every page of each account's transactions. It keeps the exchanges of the pages, not their rows
 * (`transaction-rows.ts` builds those when the data views ask), and matches pending transactions seen on
 * earlier runs to the booked ones that replaced them.
 */
export function transactionsStep(): StepDefinition<AisFlowContext, TransactionsOutput> {
  return {
    ...AIS_STEP_TEXT.transactions,
    requires: [AIS_STEPS.accounts],
    async run(ctx, scope) {
      const out: TransactionsOutput = {}
      if (!ctx.ais.input.permissions.some((p) => p.startsWith('ReadTransactions')))
        return { output: out, skipped: true, summary: 'skipped: the consent has no ReadTransactions* permission' }
      const { accounts } = scope.output(AIS_STEPS.accounts)
      const kept = new Map<string, KeptTransactions>()
      let rowsSoFar = 0
      for (const [accountIndex, a] of accounts.entries()) {
        const first = apiUrl(ctx, 'ais', `/accounts/${encodeURIComponent(a.AccountId)}/transactions`)
        const exchangeIds: string[] = []
        const heldRows: Array<TransactionViewDto[] | undefined> = []
        const pendingNow: TransactionViewDto[] = []
        let total = 0
        const result = await followPages(
          first,
          async (url) => {
            const pageNo = exchangeIds.length + 1
            const token = scope.output(CODE_EXCHANGE_STEP).accessToken
            // The PSU-absent allowance counts the call, not each page of it.
            const res =
              pageNo === 1
                ? await aisGet(
                    ctx,
                    scope,
                    url.slice(ctx.environment.baseUrl.length + ctx.environment.apiPaths.ais.length),
                    `transactions ${a.AccountId} p1`,
                    { account: a.AccountId, endpoint: 'transactions' },
                  )
                : await bearerGet(ctx, scope, url, token, `transactions ${a.AccountId} p${pageNo}`, psuHeaders(ctx))
            const page = readBankAnswer(res, {
              what: `Reading page ${pageNo} of ${a.AccountId}'s transactions`,
              status: 200,
              shape: TRANSACTIONS_ANSWER,
              fix: 'Check the consent has ReadTransactions* permissions; without the PSU present the bank returns only 90 days.',
            })
            const list = pageTransactions(page, `Page ${pageNo} of ${a.AccountId}'s transactions`)
            total += list.length
            rowsSoFar += list.length
            for (const t of list) if (t.Status === 'PDNG') pendingNow.push(toTransactionView(t))
            exchangeIds.push(res.exchangeId)
            // A page larger than the exchange log keeps whole: its rows now, since the log will not hold it.
            if (!ctx.http.keepsWhole(Buffer.byteLength(res.text)))
              heldRows[exchangeIds.length - 1] = list.map((t) => toTransactionView(t))
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
        const account = keptAccount(ctx, a.AccountId, { exchangeIds, heldRows, pendingNow })
        kept.set(a.AccountId, account)
        out[a.AccountId] = {
          total,
          pending: pendingNow.length,
          pages: result.pages,
          stoppedBecause: result.stoppedBecause,
          matches: [...account.matches],
        }
      }
      keepTransactions(out, kept)
      return outcome(out)
    },
  }
}
