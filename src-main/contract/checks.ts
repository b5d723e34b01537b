// Check results: the unit of every validation the console shows (prerequisites, claims, ID tokens, chains).

/**
 * One named check and its outcome. `expected` and `actual` are short display strings; `hint` says what
 * to change when the check fails (or why it matters when it passes with a warning).
 *
 * @example { name: 'nonce', pass: false, expected: 'n-0S6_WzA2Mj', actual: 'abc', hint: 'the ID token was issued for another request' }
 */
export interface CheckResult {
  name: string
  pass: boolean
  expected: string
  actual: string
  hint?: string
  /** `warning`: passes, but needs attention soon (a certificate expiring in 12 days). Default `error`. */
  severity?: 'error' | 'warning'
}

/** True when every check passed. */
export function allPassed(checks: readonly CheckResult[]): boolean {
  return checks.every((c) => c.pass)
}
