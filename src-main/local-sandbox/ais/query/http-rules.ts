import { isIP } from 'node:net'
import type { Context } from 'koa'
import { BodyTooLargeError, MAX_BODY_BYTES, readRawBody } from '../../http/body.ts'
import { ObApiError } from '../../http/ob-error.ts'
import { checked } from '../../conformance/probe.ts'

/**
 * 406 unless the `Accept` header admits `mediaType` (absent, `*` + `/*`, `application/*` and the type
 * itself all do). Error bodies are JSON regardless.
 */
export function requireAccept(ctx: Context, mediaType = 'application/json'): void {
  checked(ctx, 'headers.required', () => acceptCheck(ctx, mediaType))
}

function acceptCheck(ctx: Context, mediaType: string): void {
  const accept = ctx.get('accept')
  // The header naming exactly the type (what clients send) admits it without negotiation.
  if (!accept || accept === mediaType || ctx.accepts(mediaType)) return
  throw new ObApiError(406, {
    code: 'U006',
    path: 'Accept',
    message: `Accept "${accept.slice(0, 100)}" does not admit ${mediaType}, the only media type this endpoint produces; send Accept: ${mediaType} or leave the header out`,
  })
}

/** 415 unless the request body is declared `application/json` (charset utf-8 or none). */
export function requireJsonContentType(ctx: Context): void {
  checked(ctx, 'headers.required', () => contentTypeCheck(ctx))
}

function contentTypeCheck(ctx: Context): void {
  const type = ctx.get('content-type')
  const [mediaType, ...params] = type.split(';').map((s) => s.trim().toLowerCase())
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice(8)
    .replace(/"/g, '')
  if (mediaType === 'application/json' && (charset === undefined || charset === 'utf-8' || charset === 'utf8')) return
  const sent = type ? `Content-Type "${type.slice(0, 100)}"` : 'no Content-Type'
  throw new ObApiError(415, {
    code: 'U006',
    path: 'Content-Type',
    message: `the request has ${sent}; send the JSON body with Content-Type: application/json (application/jose+jwe is not supported by the sandbox)`,
  })
}

/** Reads and parses a JSON body: 400 U010 when it is empty, too large or not JSON. */
export async function readJsonBody(ctx: Context): Promise<unknown> {
  let raw: Buffer
  try {
    raw = await readRawBody(ctx)
  } catch (err) {
    if (err instanceof BodyTooLargeError)
      throw new ObApiError(400, {
        code: 'U010',
        message: `the request body is over ${MAX_BODY_BYTES} bytes; an account access consent is a small JSON object`,
      })
    throw err
  }
  const text = raw.toString('utf8').replace(/^\uFEFF/, '')
  if (!text.trim())
    throw new ObApiError(400, {
      code: 'U010',
      message:
        'the request body is empty; send an OBReadConsent1 JSON object: {"Data":{"Permissions":[...]},"Risk":{}}',
    })
  try {
    return JSON.parse(text)
  } catch (err) {
    throw new ObApiError(400, {
      code: 'U010',
      message: `the request body is not valid JSON (${(err as Error).message})`,
    })
  }
}

const AUTH_DATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} (GMT|UTC)$/

/**
 * Whether the PSU is present: `x-fapi-customer-ip-address` carries the PSU's IP address (v4.0: present
 * means the PSU is actively requesting). A value that is not an IPv4 or IPv6 address is 400 U006, and so is
 * an `x-fapi-auth-date` that is not an RFC 7231 date.
 */
export function psuPresence(ctx: Context): boolean {
  return checked(ctx, 'headers.required', () => presence(ctx))
}

function presence(ctx: Context): boolean {
  const authDate = ctx.get('x-fapi-auth-date')
  if (authDate && !AUTH_DATE.test(authDate)) {
    throw new ObApiError(400, {
      code: 'U006',
      path: 'x-fapi-auth-date',
      message: `x-fapi-auth-date "${authDate.slice(0, 60)}" is not an RFC 7231 date such as "Sun, 10 Sep 2017 19:43:31 GMT"`,
    })
  }
  const ip = ctx.get('x-fapi-customer-ip-address')
  if (!ip) return false
  if (isIP(ip.trim()) === 0) {
    throw new ObApiError(400, {
      code: 'U006',
      path: 'x-fapi-customer-ip-address',
      message: `x-fapi-customer-ip-address "${ip.slice(0, 60)}" is not an IPv4 or IPv6 address; send the PSU's IP address, or leave the header out when the PSU is not present`,
    })
  }
  return true
}
