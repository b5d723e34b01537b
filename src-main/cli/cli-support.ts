import { isAppError } from '../core/app-error.ts'

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
export function usageErrorJson(err: UsageError): string {
  return JSON.stringify({ error: { code: 'USAGE', what: err.message, cause: err.cause, fix: err.fix } })
}

const PATH_CODES: ReadonlySet<string> = new Set(['FILE_NOT_FOUND', 'NOT_A_FILE', 'NOT_WRITABLE', 'USAGE'])

let jsonErrors = false

/** With --json, errors are also printed on stdout as one JSON line `{"error": {code, what, cause, fix}}`. */
export function setJsonErrors(on: boolean): void {
  jsonErrors = on
}

/** Prints an error as the console explains errors: what failed, the cause and the fix. Returns the exit code. */
export function reportError(err: unknown, usage?: string): number {
  if (jsonErrors && err instanceof UsageError) process.stdout.write(usageErrorJson(err) + '\n')
  else if (jsonErrors) {
    const e = isAppError(err)
      ? {
          code: err.code,
          what: err.what,
          cause: err.cause,
          fix: err.fix,
          ...(err.details ? { details: err.details } : {}),
          ...(err.problems ? { problems: err.problems } : {}),
        }
      : { code: 'INTERNAL', what: (err as Error)?.message ?? String(err) }
    process.stdout.write(JSON.stringify({ error: e }) + '\n')
  }
  if (err instanceof UsageError) {
    process.stderr.write(`ob-console: ${err.message}\n  fix: ${err.fix}\n${usage ? `\n${usage}` : ''}`)
    return 2
  }
  if (isAppError(err)) {
    process.stderr.write(`ob-console: ${err.what}\n  cause: ${err.cause}\n  fix:   ${err.fix}\n`)
    for (const p of err.problems ?? [])
      process.stderr.write(`  - ${p.code}${p.path ? ` (${p.path})` : ''}: ${p.message}\n`)
    // A path on the command line that cannot be used is a bad command line too.
    return PATH_CODES.has(err.code) ? 2 : 1
  }
  process.stderr.write(`ob-console: ${(err as Error).message ?? String(err)}\n`)
  return 1
}

/** One line per check: ✓ or ✗, the name, and expected/actual when it fails. */
export function formatChecks(
  checks: Array<{ name: string; pass: boolean; expected?: string; actual?: string; hint?: string }>,
): string {
  return checks
    .map(
      (c) =>
        `  ${c.pass ? '✓' : '✗'} ${c.name}${c.pass ? '' : `: expected ${c.expected ?? '?'}, got ${c.actual ?? '?'}${c.hint ? ` (${c.hint})` : ''}`}`,
    )
    .join('\n')
}
