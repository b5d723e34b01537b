// The edits the hostile-bank test makes to the sandbox's real answers, and the table of what it observed.
import type { AppErrorDto } from '../../../../src-main/contract/errors.ts'
import type { ConformanceViolationDto } from '../../../../src-main/contract/exchange.ts'
import { contentHeaders, headBytes, type Answer } from './hostile-bank-proxy.ts'

/** What one case observed, for the table and the assertions. */
export interface Row {
  group: string
  label: string
  step: string
  status: string
  error?: AppErrorDto
  violations: ConformanceViolationDto[]
}

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
const json = (a: Answer) => JSON.parse(a.body.toString('utf8')) as Json
/** The real answer with its JSON body edited. */
export const editJson =
  (edit: (body: Json) => void) =>
  (a: Answer): Answer => {
    const body = json(a)
    edit(body)
    return { ...a, body: Buffer.from(JSON.stringify(body)) }
  }
/** The real answer with `extra` headers in place of those of the same names. */
export const withHeaders = (a: Answer, extra: Array<[string, string]>): Answer => {
  const names = new Set(extra.map(([k]) => k.toLowerCase()))
  return { ...a, headers: [...contentHeaders(a.headers).filter(([k]) => !names.has(k.toLowerCase())), ...extra] }
}
/** The real answer's status line and headers written raw with `eol`, and its body. */
export const rawAnswer = (a: Answer, extra: Array<[string, string]> = [], eol = '\r\n') =>
  Buffer.concat([
    headBytes(a.status, [...contentHeaders(a.headers), ...extra, ['content-length', String(a.body.length)]], eol),
    a.body,
  ])

/** The lens's rules a case's answer broke. */
export const rules = (r: Row) => r.violations.map((v) => v.rule)

/** The rows as the Markdown table of docs/reliability.md: addresses and ids normalised, so a run that behaves the same gives the same bytes. */
export function tableOf(rows: Row[], proxyUrl: string): string {
  const cell = (t: string) =>
    t
      .replaceAll(proxyUrl, '{base_url}')
      .replaceAll(new URL(proxyUrl).host, '{base_url host}')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '{uuid}')
      .replace(/\(now \d+\)/g, '(now {seconds})')
      .replace(/\|/g, '\\|')
      .replace(/\n/g, ' ')
  return [
    '| # | Case | Step | Outcome | Code | What the console says | Cause | Fix | Lens |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r, i) =>
        `| ${i + 1} | ${r.group}: ${cell(r.label)} | ${r.step} | ${r.status} | ${r.error?.code ?? ''} | ${cell(r.error?.what ?? '')} | ${cell(r.error?.cause ?? '')} | ${cell(r.error?.fix ?? '')} | ${rules(r).join(', ')} |`,
    ),
  ].join('\n')
}
