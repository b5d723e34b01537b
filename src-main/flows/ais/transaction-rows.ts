import type { TransactionViewDto } from '../../contract/ais-data.ts'
import { AppError } from '../../core/app-error.ts'
import type { OBReadTransaction6 } from '../../plumbing/ob-wire/account-info.ts'
import { toTransactionView, type ObTransaction } from './transaction-matching.ts'

/**
 * The transactions step's output, per account: what was read (transactions, pending ones, pages, why it
 * stopped, pending-to-booked matches), not the rows. Every progress event and state read carries a step's
 * output, and a flow keeps it as long as the flow is kept (up to 50 flows): the rows are built on demand
 * (`rowsOf`), from the pages in the exchange log, one exchange per page.
 */
export interface TransactionsOutput {
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
export interface KeptTransactions {
  exchangeIds?: string[]
  /**
   * The rows of the pages the exchange log does not keep whole (a page over its whole-body cap, as a
   * `--max-body-mib` larger than that cap allows), by page index: built as the page was read.
   */
  heldRows?: Array<TransactionViewDto[] | undefined>
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

/** Keeps the pages behind a transactions output, per account id, for `keptRows`. */
export function keepTransactions(output: TransactionsOutput, kept: Map<string, KeptTransactions>): void {
  keptTransactions.set(output, kept)
}

/** The rows of one account of a transactions output, built on the first ask (none when its pages were not kept). */
export function keptRows(output: TransactionsOutput, accountId: string): TransactionViewDto[] {
  const kept = keptTransactions.get(output)?.get(accountId)
  return kept ? rowsOf(kept, accountId) : []
}

/** The transactions of a page: `Data.Transaction`, which must be an array when present. */
export function pageTransactions(page: { Data?: { Transaction?: unknown } }, where: string): ObTransaction[] {
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
export function applyMatches(rows: TransactionViewDto[], matches: ReadonlyMap<string, string>): void {
  if (!matches.size) return
  for (const row of rows) {
    const pending = matches.get(row.transactionId)
    if (pending) row.matchedPendingId = pending
  }
}

/** The rows of kept pages, booked transactions showing the pending id they were matched to. */
export function rowsOf(kept: KeptTransactions, accountId: string): TransactionViewDto[] {
  if (kept.rows) return kept.rows
  const rows: TransactionViewDto[] = []
  const ids = kept.exchangeIds ?? []
  for (let i = 0; i < ids.length; i++) {
    const held = kept.heldRows?.[i]
    if (held) {
      for (const row of held) rows.push(row)
      continue
    }
    const body = kept.responseBody(ids[i]!)
    if (!body) {
      throw new AppError('NOT_FOUND', {
        what: `Showing the transactions of ${accountId} failed: page ${i + 1} of ${ids.length} is no longer in the exchange log.`,
        cause:
          'The data view builds its rows from the responses the exchange log keeps, and the log was cleared since, or has made room for newer exchanges.',
        fix: "Run the flow's Transactions step again: it reads every page afresh.",
      })
    }
    for (const t of pageTransactions(
      JSON.parse(decoder.decode(body)) as OBReadTransaction6,
      `Page ${i + 1} of ${accountId}'s transactions`,
    ))
      rows.push(toTransactionView(t))
  }
  applyMatches(rows, kept.matches)
  kept.rows = rows
  kept.exchangeIds = undefined
  kept.heldRows = undefined
  return rows
}
