import { isIP } from 'node:net'
import type { Context } from 'koa'
import { BodyTooLargeError, MAX_BODY_BYTES, readRawBody } from '../../http/body.ts'
import { ObApiError } from '../../http/ob-error.ts'
import { checked } from '../../conformance/probe.ts'

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
