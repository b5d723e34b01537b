import type { CheckResult } from '../contract/checks.ts'
import type { ErrorCode } from '../contract/errors.ts'
import { AppError } from '../core/app-error.ts'

/** Shows a claim value in a check's `actual`/`expected` (strings unquoted, the rest as JSON). */
export function show(value: unknown): string {
  if (value === undefined) return 'absent'
  if (typeof value === 'string') return value
  return JSON.stringify(value)
}

/** Builds a CheckResult; the hint is kept only when the check fails (or is a warning). */
export function check(
  name: string,
  pass: boolean,
  expected: unknown,
  actual: unknown,
  hint?: string,
  severity?: 'warning',
): CheckResult {
  return {
    name,
    pass,
    expected: show(expected),
    actual: show(actual),
    ...(hint && (!pass || severity) ? { hint } : {}),
    ...(severity ? { severity } : {}),
  }
}

/**
 * Throws an AppError (`SIGNATURE_INVALID` for an ID token or `x-jws-signature` that fails, for example)
 * listing every failed check as a problem; warnings do not count. Does nothing when all passed.
 *
 * @example const { checks } = await verifyDetachedJws(sig, body, opts)
 *          assertChecksPass(checks, 'SIGNATURE_INVALID', 'Verifying the x-jws-signature of the response failed')
 */
export function assertChecksPass(checks: CheckResult[], code: ErrorCode, what: string): void {
  const failed = checks.filter((c) => !c.pass && c.severity !== 'warning')
  if (failed.length === 0) return
  throw new AppError(code, {
    what,
    cause: failed.map((c) => `${c.name}: expected ${c.expected}, got ${c.actual}`).join('; '),
    fix: failed.find((c) => c.hint)?.hint ?? 'see each failed check',
    problems: failed.map((c) => ({
      code: c.name,
      message: `expected ${c.expected}, got ${c.actual}`,
      ...(c.hint ? { explanation: c.hint } : {}),
    })),
  })
}
