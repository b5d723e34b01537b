import type { Context } from 'koa'
import type { OBStatement2 } from '../../../plumbing/ob-wire/account-info.ts'
import { ObApiError } from '../../http/ob-error.ts'
import type { BankAccount } from '../ais-bank.ts'
import type { AisAccess } from '../access/data-access.ts'
import { parseFilterDateTime, readQuery } from '../query/query-params.ts'
import type { StatementRecord } from '../seed/card-account-generator.ts'
import { amountString } from '../seed/money.ts'
import { iso } from '../views/format.ts'
import { statementView } from '../views/card-views.ts'
import { renderPdf, type PdfLine } from '../views/statement-pdf.ts'
import { access, bankAccount, bankAccounts, rule } from './account-routes.ts'
import { sendRead, type AisDeps, type Route } from './route-kit.ts'

const STATEMENTS = (name: string) =>
  rule(name, 'ReadStatementsBasic or ReadStatementsDetail', (p) => p.any('Statements'))

const RULES = {
  bulk: STATEMENTS('GET /statements'),
  account: STATEMENTS('GET /accounts/{AccountId}/statements'),
  one: STATEMENTS('GET /accounts/{AccountId}/statements/{StatementId}'),
  file: rule('GET /accounts/{AccountId}/statements/{StatementId}/file', 'ReadStatementsDetail', (p) =>
    p.detail('Statements'),
  ),
}

/** Whether the statement lies wholly inside the consent's transaction period (v4.0: only those are visible). */
function insideConsent(s: StatementRecord, a: AisAccess): boolean {
  const from = a.consent.transactionFromDateTime ? Date.parse(a.consent.transactionFromDateTime) : -Infinity
  const to = a.consent.transactionToDateTime ? Date.parse(a.consent.transactionToDateTime) : Infinity
  return s.start >= from && s.end - 1000 <= to
}

/** An issued statement of the account: 400 U011 when unknown, 403 when outside the consent's period. */
export function findStatement(deps: AisDeps, a: AisAccess, acc: BankAccount, statementId: string): StatementRecord {
  const s = deps.bank.statements(acc.account.accountId, a.nowMs).find((x) => x.id === statementId)
  if (!s) {
    const hint =
      acc.account.accountTypeCode === 'CARD'
        ? 'use a StatementId from GET /accounts/{AccountId}/statements'
        : 'only credit cards have statements'
    throw new ObApiError(400, {
      code: 'U011',
      path: 'StatementId',
      message: `account ${acc.account.accountId} has no statement ${statementId.slice(0, 60)}; ${hint}`,
    })
  }
  if (!insideConsent(s, a)) {
    throw new ObApiError(403, {
      code: 'U008',
      path: 'StatementId',
      message: `statement ${s.id} (${iso(s.start)} to ${iso(s.end - 1000)}) is not wholly inside the consent's TransactionFromDateTime/TransactionToDateTime period`,
    })
  }
  return s
}

/** Statements of the accounts visible under the consent, filtered by `fromStatementDateTime` / `toStatementDateTime` on their end date. */
function visibleStatements(ctx: Context, deps: AisDeps, a: AisAccess, accounts: BankAccount[]): OBStatement2[] {
  const q = readQuery(ctx, ['fromStatementDateTime', 'toStatementDateTime'])
  const from =
    q.fromStatementDateTime !== undefined
      ? parseFilterDateTime('fromStatementDateTime', q.fromStatementDateTime, false)
      : -Infinity
  const to =
    q.toStatementDateTime !== undefined
      ? parseFilterDateTime('toStatementDateTime', q.toStatementDateTime, true)
      : Infinity
  if (from > to)
    throw new ObApiError(400, {
      code: 'U003',
      path: 'toStatementDateTime',
      message: 'toStatementDateTime is before fromStatementDateTime',
    })
  const out: OBStatement2[] = []
  for (const acc of accounts) {
    for (const s of deps.bank.statements(acc.account.accountId, a.nowMs)) {
      const endsAt = s.end - 1000
      if (endsAt >= from && endsAt <= to && insideConsent(s, a)) out.push(statementView(s, acc, a.permissions))
    }
  }
  return out
}

async function bulkStatements(ctx: Context, _p: Record<string, string>, deps: AisDeps): Promise<void> {
  const a = await access(ctx, deps, RULES.bulk)
  sendRead(ctx, deps, { Statement: visibleStatements(ctx, deps, a, bankAccounts(deps, a)) })
}

async function accountStatements(ctx: Context, p: Record<string, string>, deps: AisDeps): Promise<void> {
  const a = await access(ctx, deps, RULES.account)
  const acc = bankAccount(deps, a, p.AccountId!)
  // A current account has no statements: 200 with an empty list (the bank's spec, section 7).
  sendRead(ctx, deps, { Statement: visibleStatements(ctx, deps, a, [acc]) })
}

async function oneStatement(ctx: Context, p: Record<string, string>, deps: AisDeps): Promise<void> {
  const a = await access(ctx, deps, RULES.one)
  const acc = bankAccount(deps, a, p.AccountId!)
  readQuery(ctx, [])
  sendRead(ctx, deps, { Statement: [statementView(findStatement(deps, a, acc, p.StatementId!), acc, a.permissions)] })
}

/** The statement as a PDF document: summary, then every transaction booked in the period. */
export function statementPdf(s: StatementRecord, acc: BankAccount, bankName: string): Promise<Buffer> {
  const money = (pence: number) => `${pence < 0 ? '-' : ''}${amountString(pence)} GBP`
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)
  const lines: PdfLine[] = [
    { text: bankName, bold: true, size: 16 },
    { text: `${acc.spec.product.ProductName} statement ${s.reference}`, bold: true, size: 12 },
    { text: `${acc.spec.accountName}   card ending ${acc.account.identification.slice(-4)}` },
    {
      text: `Period ${day(s.start)} to ${day(s.end - 1000)}   issued ${day(s.issuedAt)}   payment due ${day(s.dueAt)}`,
    },
    { text: '' },
    { text: `Previous balance: ${money(s.openingPence)}    New balance: ${money(s.closingPence)}`, bold: true },
    {
      text: `Purchases ${money(-s.purchasesPence)}   Credits ${money(s.creditsPence)}   Interest ${money(-s.interestPence)}   Cashback ${money(s.cashbackPence)}`,
    },
    {
      text: `Minimum payment ${money(s.minimumDuePence)}   Credit limit ${money(s.creditLimitPence)}   Purchase APR ${s.purchaseApr}%`,
    },
    { text: '' },
    { text: `${'Date'.padEnd(12)}${'Description'.padEnd(54)}${'Amount'.padStart(16)}`, mono: true, size: 8 },
  ]
  const l = acc.ledger
  for (let i = l.firstBookingAtOrAfter(s.start); i < l.entries.length && l.entries[i]!.bookAt < s.end; i++) {
    const e = l.entries[i]!
    lines.push({
      text: `${day(e.bookAt)}  ${e.info.slice(0, 52).padEnd(54)}${money(e.pence).padStart(16)}`,
      mono: true,
      size: 8,
    })
  }
  return renderPdf(lines, `${bankName} - ${s.id}`, `Statement ${s.reference}`)
}

async function statementFile(ctx: Context, p: Record<string, string>, deps: AisDeps): Promise<void> {
  const a = await access(ctx, deps, RULES.file)
  const acc = bankAccount(deps, a, p.AccountId!)
  readQuery(ctx, [])
  const s = findStatement(deps, a, acc, p.StatementId!)
  ctx.status = 200
  ctx.type = 'application/pdf'
  ctx.set('Content-Disposition', `attachment; filename="${s.id}.pdf"`)
  ctx.body = await statementPdf(s, acc, deps.bank.catalogue.servicer.Name)
}

export const statementRoutes: Route[] = [
  { method: 'GET', path: '/statements', handler: bulkStatements },
  { method: 'GET', path: '/accounts/{AccountId}/statements', handler: accountStatements },
  { method: 'GET', path: '/accounts/{AccountId}/statements/{StatementId}', handler: oneStatement },
  {
    method: 'GET',
    path: '/accounts/{AccountId}/statements/{StatementId}/file',
    produces: 'application/pdf',
    handler: statementFile,
  },
]
