import type { Context } from 'koa'

/** The longest value the sandbox puts in a response header; longer ones are cut and end with `...`. */
export const MAX_HEADER_VALUE_CHARS = 300

/**
 * A value that is safe to put in a response header: every character outside printable ASCII
 * (control characters, CR and LF, DEL, anything non-ASCII) becomes `?`, and the value is cut to
 * `max` characters. Node refuses control characters in a header (it throws, which would turn a
 * refusal into a 500) and would send a header-splitting CR LF if it did not; non-ASCII is not
 * portable in a header either. Used for every request-derived value the sandbox echoes.
 */
export function headerValue(value: string, max: number = MAX_HEADER_VALUE_CHARS): string {
  const clean = value.replace(/[^\x20-\x7e]/gu, '?')
  return clean.length > max ? `${clean.slice(0, Math.max(0, max - 3))}...` : clean
}

/**
 * The content of an RFC 9110 quoted-string (an auth-param such as `error_description="..."` or a
 * `filename="..."`): as `headerValue`, and double quotes and backslashes become `'`, so the value
 * can neither end the quoted string early nor escape anything.
 */
export function quotedHeaderValue(value: string, max: number = MAX_HEADER_VALUE_CHARS): string {
  return headerValue(value.replace(/["\\]/g, "'"), max)
}

/** The cap of `setHeaders`, above any header value the sandbox builds itself (Allow, Retry-After, challenges). */
const MAX_SET_HEADER_CHARS = 2048

/** Sets every header of `headers` on the response, each value passed through `headerValue`. */
export function setHeaders(ctx: Context, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) ctx.set(name, headerValue(value, MAX_SET_HEADER_CHARS))
}

/** `WWW-Authenticate: Bearer error="...", error_description="..."` (RFC 6750 section 3), values made safe. */
export function bearerChallengeValue(error: string, description: string): string {
  return `Bearer error="${quotedHeaderValue(error, 64)}", error_description="${quotedHeaderValue(description)}"`
}
