/**
 * The bank-conformance lens on the command line: each exchange's violations printed after the step that
 * made it (or, for single-request commands, after the command's output), the same in `--json` output as a
 * `conformance` member, and with `--strict` any violation fails the command with its own exit code.
 */
import type { ConformanceDto } from '../contract/exchange.ts'
import type { ConsoleRuntime } from './console-runtime.ts'
import { terminalLine as one } from '../plumbing/terminal-text.ts'

/** The exit code of a command that otherwise passed when `--strict` found bank-conformance violations. */
export const EXIT_CONFORMANCE = 3

/** One exchange's verdict, as `--json` output carries it (checked exchanges only). */
export interface ConformanceEntry {
  exchangeId: string
  method: string
  path: string
  operation?: string
  violations: ConformanceDto['violations']
}

export interface ConformanceReport {
  /** Prints the violations of these exchanges (to the step log: stderr with --json), once each, waiting for their checks. */
  afterStep(exchangeIds: readonly string[]): Promise<void>
  /** Waits for every check, prints what was not printed yet; returns the entries and the violations in all. */
  finish(): Promise<{ entries: ConformanceEntry[]; violations: number }>
  /** The exit code: `code`, or EXIT_CONFORMANCE when it is 0, --strict is on and a violation was found. */
  exitCode(code: number, violations: number): number
  stop(): void
}

/**
 * Violation lines of one exchange: `  ! rule at path: message (found value) [source]`. The path, message and
 * found value quote the bank: each stays on its line, control characters escaped.
 */
export function formatViolations(method: string, path: string, c: ConformanceDto): string {
  const n = c.violations.length
  const head = `  ! ${n} bank-conformance violation${n === 1 ? '' : 's'} in the answer to ${method} ${one(path)}${c.operation ? ` (${c.operation})` : ''}:`
  const lines = c.violations.map((v) => {
    const found = v.value !== undefined ? ` (found ${one(String(v.value))})` : ''
    return `    - ${v.rule} at ${one(v.path || '(the whole answer)')}: ${one(v.message)}${found}\n      source: ${v.source}`
  })
  return [head, ...lines].join('\n')
}

/** Follows every exchange the runtime records from now on. */
export function conformanceReport(
  rt: ConsoleRuntime,
  options: { strict: boolean; say: (line: string) => void },
): ConformanceReport {
  const http = rt.services.http.exchanges
  const seen: Array<{ id: string; method: string; path: string }> = []
  const known = new Set<string>()
  const printed = new Set<string>()
  const off = http.onRecord((s) => {
    if (known.has(s.id)) return
    known.add(s.id)
    seen.push({ id: s.id, method: s.method, path: s.path })
  })
  const print = async (ids: readonly string[]) => {
    for (const id of ids) {
      if (printed.has(id)) continue
      printed.add(id)
      const c = await http.conformance(id)
      const x = seen.find((e) => e.id === id)
      if (c?.checked && c.violations.length && x) options.say(formatViolations(x.method, x.path, c))
    }
  }
  return {
    afterStep: (ids) => print(ids),
    async finish() {
      await http.conformanceSettled()
      await print(seen.map((e) => e.id))
      const entries: ConformanceEntry[] = []
      for (const e of seen) {
        const c = await http.conformance(e.id)
        if (!c?.checked) continue
        entries.push({
          exchangeId: e.id,
          method: e.method,
          path: e.path,
          ...(c.operation ? { operation: c.operation } : {}),
          violations: c.violations,
        })
      }
      const violations = entries.reduce((n, e) => n + e.violations.length, 0)
      if (entries.length) {
        const plural = (k: number, word: string) => `${k} ${word}${k === 1 ? '' : 's'}`
        const strict = violations && options.strict ? ' (--strict: the command fails)' : ''
        options.say(
          `bank conformance: ${plural(entries.length, 'answer')} checked, ${plural(violations, 'violation')}${strict}`,
        )
      }
      return { entries, violations }
    },
    exitCode: (code, violations) => (code === 0 && options.strict && violations > 0 ? EXIT_CONFORMANCE : code),
    stop: off,
  }
}
