// The content codings a bank may put on an answer (`Content-Encoding`), undone with zlib before anything
// reads the body: gzip, deflate and br. The console sends no Accept-Encoding, which allows any coding
// (RFC 9110 §12.5.3); a coding it cannot undo, or bytes that are not what their label says, is refused by
// name instead of being read as text.
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync, type ZlibOptions } from 'node:zlib'
import { AppError } from '../core/app-error.ts'
import { MAX_BODY_SETTING, type RawResponse } from './bounded-dispatch.ts'
import { headerValues } from '../core/header-lookup.ts'

/** Why a body could not be decoded: an unknown coding, bytes that are not that coding, or a body over the cap once decoded. */
export class ContentEncodingError extends Error {
  constructor(
    readonly kind: 'unsupported' | 'corrupt' | 'too-large',
    /** The coding as the bank named it. */
    readonly coding: string,
    readonly detail: string,
  ) {
    super(`Content-Encoding ${coding}: ${detail}`)
  }
}

/** The codings of an answer, in the order the bank applied them (`identity` left out). */
export function contentCodings(headers: Array<[string, string]>): string[] {
  return headerValues(headers, 'content-encoding')
    .flatMap((v) => v.split(','))
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity')
}

function undo(coding: string, body: Buffer, options: ZlibOptions): Buffer {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return gunzipSync(body, options)
    case 'deflate':
      // "deflate" is the zlib format (RFC 9110 §8.4.1.2); some servers send a raw deflate stream instead.
      try {
        return inflateSync(body, options)
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw err
        return inflateRawSync(body, options)
      }
    case 'br':
      return brotliDecompressSync(body, options)
    default:
      throw new ContentEncodingError('unsupported', coding, 'not a coding the console decodes (gzip, deflate, br)')
  }
}

/**
 * The body with its content codings undone (the last applied undone first), at most `maxBytes` once
 * decoded. Returns the body as it is when it has none; throws ContentEncodingError otherwise.
 */
export function decodeBody(headers: Array<[string, string]>, body: Buffer, maxBytes: number): Buffer {
  const codings = contentCodings(headers)
  if (!codings.length || body.length === 0) return body
  let out = body
  for (const coding of [...codings].reverse()) {
    try {
      out = undo(coding, out, { maxOutputLength: maxBytes })
    } catch (err) {
      if (err instanceof ContentEncodingError) throw err
      const e = err as NodeJS.ErrnoException
      if (e.code === 'ERR_BUFFER_TOO_LARGE')
        throw new ContentEncodingError('too-large', coding, `over ${maxBytes} bytes once decoded`)
      throw new ContentEncodingError('corrupt', coding, `the bytes are not ${coding} data (zlib: ${e.message})`)
    }
  }
  return out
}

/** The first bytes of a body in hex (`1f 8b 08 ...`): what a compressed or binary body begins with, printable. */
function firstBytes(body: Buffer): string {
  return [...body.subarray(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join(' ')
}

/** The coded error of an answer whose content coding could not be undone; the exchange keeps the bytes as received. */
export function contentEncodingError(
  req: { method: string; url: string },
  res: RawResponse,
  err: ContentEncodingError,
): AppError {
  const interaction = res.headers['x-fapi-interaction-id']
  const report = `report it to the bank${typeof interaction === 'string' ? ` with x-fapi-interaction-id ${interaction}` : ''}; the exchange log holds the body as received`
  const details = { status: res.status, contentEncoding: err.coding, bytes: res.body.length }
  const what = `${req.method} ${req.url} answered ${res.status} with Content-Encoding: ${err.coding}, and the console could not decode the body`
  if (err.kind === 'too-large')
    return new AppError('RESPONSE_TOO_LARGE', {
      what: `${what}: ${err.detail}`,
      cause: `the ${res.body.length}-byte ${err.coding} body grows past the largest body the console reads once decompressed`,
      fix: `if the bank really sends bodies this large, raise ${MAX_BODY_SETTING}; otherwise ask for less (a shorter period, a smaller page)`,
      details,
    })
  if (err.kind === 'unsupported')
    return new AppError('BANK_ANSWER_INVALID', {
      what: `${what}: "${err.coding}" is ${err.detail}`,
      cause: `the bank (or a gateway in front of it) compressed the answer with "${err.coding}"; the console decodes gzip, deflate and br, and a body in another coding cannot be read as JSON`,
      fix: `ask the bank to answer without compression or with gzip; ${report}`,
      details,
    })
  return new AppError('BANK_ANSWER_INVALID', {
    what: `${what}: it is labelled ${err.coding} but is not ${err.coding} data`,
    cause: `the bank (or a gateway in front of it) sent a body that Content-Encoding: ${err.coding} mislabels or that was corrupted on the way (it begins ${firstBytes(res.body) || 'with nothing'}; ${err.detail})`,
    fix: `nothing in your request causes this: ${report}`,
    details,
  })
}
