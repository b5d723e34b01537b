import { isAppError } from '../core/app-error.ts'
import { writeErr, writeJsonOut } from '../plumbing/terminal-out.ts'
import { terminalLine as one } from '../plumbing/terminal-text.ts'

/**
 * A bad command line: exit 2 with one line naming the flag, the fix, and the usage. With --json it is printed
 * on stdout as `{"error": {"code": "USAGE", what, cause, fix}}`.
 */
export class UsageError extends Error {
  readonly fix: string
  override readonly cause: string
  constructor(message: string, fix?: string, cause?: string) {
    super(message)
    this.fix = fix ?? 'Run the command with --help for the flags it takes and their values.'
    this.cause = cause ?? 'The command line is not one the command takes.'
  }
}

/** The `{"error": …}` object of a usage error (stdout with --json). */
export function usageErrorData(err: UsageError): {
  error: { code: 'USAGE'; what: string; cause: string; fix: string }
} {
  return { error: { code: 'USAGE', what: err.message, cause: err.cause, fix: err.fix } }
}

/**
 * For a command with its own prefix (`ob-console sandbox: …`): a usage error, or a path on the command line that
 * cannot be used (FILE_NOT_FOUND, NOT_A_FILE, NOT_WRITABLE), printed with its fix (and as JSON on stdout with
 * --json) before anything starts. Returns false for any other error, which the caller handles.
 */
export function reportBadCommandLine(err: unknown, prefix: string, usage: string, json: boolean): boolean {
  if (err instanceof UsageError) {
    if (json) writeJsonOut(usageErrorData(err))
    writeErr(`${prefix}: ${one(err.message)}\n  fix: ${one(err.fix)}\n\n${usage}`)
    return true
  }
  if (isAppError(err) && PATH_CODES.has(err.code)) {
    if (json) writeJsonOut({ error: { code: err.code, what: err.what, cause: err.cause, fix: err.fix } })
    writeErr(`${prefix}: ${one(err.what)}\n  cause: ${one(err.cause)}\n  fix:   ${one(err.fix)}\n\n${usage}`)
    return true
  }
  return false
}

const PATH_CODES: ReadonlySet<string> = new Set(['FILE_NOT_FOUND', 'NOT_A_FILE', 'NOT_WRITABLE', 'USAGE'])

let jsonErrors = false

/** With --json, errors are also printed on stdout as one JSON line `{"error": {code, what, cause, fix}}`. */
export function setJsonErrors(on: boolean): void {
  jsonErrors = on
}

/**
 * Prints an error as the console explains errors: what failed, the cause and the fix. Returns the exit code.
 * Through the terminal writers: a bank's words in it are shown with their control characters escaped.
 */
export function reportError(err: unknown, usage?: string): number {
  if (jsonErrors) {
    const e =
      err instanceof UsageError
        ? { code: 'USAGE', what: err.message, cause: err.cause, fix: err.fix }
        : isAppError(err)
          ? {
              code: err.code,
              what: err.what,
              cause: err.cause,
              fix: err.fix,
              ...(err.details ? { details: err.details } : {}),
              ...(err.problems ? { problems: err.problems } : {}),
            }
          : { code: 'INTERNAL', what: (err as Error)?.message ?? String(err) }
    writeJsonOut({ error: e })
  }
  if (err instanceof UsageError) {
    writeErr(`ob-console: ${one(err.message)}\n  fix: ${one(err.fix)}\n${usage ? `\n${usage}` : ''}`)
    return 2
  }
  if (isAppError(err)) {
    writeErr(`ob-console: ${one(err.what)}\n  cause: ${one(err.cause)}\n  fix:   ${one(err.fix)}\n`)
    for (const p of err.problems ?? [])
      writeErr(`  - ${one(p.code)}${p.path ? ` (${one(p.path)})` : ''}: ${one(p.message)}\n`)
    // A path on the command line that cannot be used is a bad command line too.
    return PATH_CODES.has(err.code) ? 2 : 1
  }
  writeErr(`ob-console: ${one((err as Error)?.message ?? String(err))}\n`)
  return 1
}

/** One line per check: ✓ or ✗, the name, and expected/actual when it fails (each value on its line, escaped). */
export function formatChecks(
  checks: Array<{ name: string; pass: boolean; expected?: string; actual?: string; hint?: string }>,
): string {
  return checks
    .map(
      (c) =>
        `  ${c.pass ? '✓' : '✗'} ${one(c.name)}${c.pass ? '' : `: expected ${one(c.expected ?? '?')}, got ${one(c.actual ?? '?')}${c.hint ? ` (${one(c.hint)})` : ''}`}`,
    )
    .join('\n')
}
