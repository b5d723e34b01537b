import type { CheckResult } from '../contract/checks.ts'

/** Shows a claim value in a check's `actual`/`expected` (strings unquoted, the rest as JSON). */
export function show(value: unknown): string {
  if (value === undefined) return 'absent'
  if (typeof value === 'string') return value
  return JSON.stringify(value)
}

/** Builds a CheckResult; the hint is kept only when the check fails (or is a warning). */
export function check(name: string, pass: boolean, expected: unknown, actual: unknown, hint?: string, severity?: 'warning'): CheckResult {
  return { name, pass, expected: show(expected), actual: show(actual), ...(hint && (!pass || severity) ? { hint } : {}), ...(severity ? { severity } : {}) }
}
