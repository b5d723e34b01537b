import { readFileSync } from 'node:fs'
import { isAppError } from '../core/app-error.ts'
import { writeErr, writeJsonOut } from '../plumbing/terminal-out.ts'
import { terminalLine as one } from '../plumbing/terminal-text.ts'

/** A bad command line: exit 2 with one line and the usage. */
export class UsageError extends Error {}

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
        ? { code: 'USAGE', what: err.message }
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
    writeErr(`ob-console: ${err.message}\n${usage ? `\n${usage}` : ''}`)
    return 2
  }
  if (isAppError(err)) {
    writeErr(`ob-console: ${one(err.what)}\n  cause: ${one(err.cause)}\n  fix:   ${one(err.fix)}\n`)
    for (const p of err.problems ?? [])
      writeErr(`  - ${one(p.code)}${p.path ? ` (${one(p.path)})` : ''}: ${one(p.message)}\n`)
    return 1
  }
  writeErr(`ob-console: ${one((err as Error)?.message ?? String(err))}\n`)
  return 1
}

/** Reads a file argument (or standard input for "-"), naming the file when it cannot. */
export function readInput(path: string): string {
  try {
    return path === '-' ? readFileSync(0, 'utf8') : readFileSync(path, 'utf8')
  } catch (err) {
    throw new UsageError(
      `cannot read ${path === '-' ? 'standard input' : path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    )
  }
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
