import { isoDurationSeconds } from '../../plumbing/iso-duration.ts'

/** The most the admin clock moves in one request: ten years. */
export const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 60 * 60

/**
 * Reads the body of `POST /admin/clock`: `{"advanceSeconds": N}` or `{"advance": "P1D"}` (exactly one).
 * Returns the seconds to move the sandbox clock forward; `fail` builds the error for a bad body, whose
 * message names the rule (the clock only moves forward, at most ten years at a time).
 */
export function parseClockAdvance(body: unknown, fail: (message: string) => Error): number {
  const example = 'send {"advanceSeconds": 86400} or {"advance": "P1D"}'
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw fail(`the body must be a JSON object; ${example}`)
  const { advanceSeconds, advance, ...rest } = body as Record<string, unknown>
  const unknown = Object.keys(rest)
  if (unknown.length) throw fail(`unknown field ${unknown.map((k) => `"${k}"`).join(', ')}; ${example}`)
  if (advanceSeconds !== undefined && advance !== undefined)
    throw fail(`give advanceSeconds or advance, not both; ${example}`)
  let seconds: number
  if (advanceSeconds !== undefined) {
    if (typeof advanceSeconds !== 'number' || !Number.isFinite(advanceSeconds))
      throw fail(`advanceSeconds must be a number of seconds, got ${JSON.stringify(advanceSeconds)}`)
    seconds = advanceSeconds
  } else if (advance !== undefined) {
    if (typeof advance !== 'string')
      throw fail(`advance must be an ISO 8601 duration string such as "P1D" or "PT90M", got ${JSON.stringify(advance)}`)
    if (advance.startsWith('-')) throw fail(`advance is negative (${advance}): the sandbox clock only moves forward`)
    const parsed = isoDurationSeconds(advance)
    if (parsed === undefined)
      throw fail(
        `advance "${advance}" is not an ISO 8601 duration of weeks, days, hours, minutes and seconds (e.g. "P1D", "PT36H", "P1DT2H30M"); years and months are not accepted`,
      )
    seconds = parsed
  } else {
    throw fail(`nothing to do: ${example}`)
  }
  if (seconds < 0)
    throw fail(
      `advanceSeconds is negative (${seconds}): the sandbox clock only moves forward, across restarts too; start it with --fresh (a new data dir) to go back to wall time`,
    )
  if (seconds > MAX_ADVANCE_SECONDS)
    throw fail(
      `advanceSeconds ${seconds} is more than ten years (${MAX_ADVANCE_SECONDS} s); move the clock in smaller steps`,
    )
  return seconds
}
