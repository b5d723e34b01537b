// One request through undici's dispatcher with the response body bounded while it streams: the cap, the
// preview kept of a body over it, and the error that reports it. `http-client.ts` sends through this.
import type { Agent, Dispatcher } from 'undici'
import { AppError } from '../core/app-error.ts'

const MIB = 1024 * 1024
/** The largest response body read by default (an environment setting and `--max-body-mib` change it). */
export const DEFAULT_MAX_BODY_BYTES = 50 * MIB
/** Bytes of a body over the cap kept in the exchange log, so the inspector shows how it starts. */
export const BODY_PREVIEW_BYTES = 1 * MIB
/** Where the cap is set, for the error that reports it. */
export const MAX_BODY_SETTING =
  'the environment\'s "Largest response body" setting (maxResponseBodyMiB), or --max-body-mib on the CLI'

/** A response as undici hands it over, its body whole. */
export interface RawResponse {
  status: number
  statusText: string
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

/**
 * A response whose body is over the cap: the request was aborted, `preview` holds its first bytes.
 * `declared`: the Content-Length, when the bank sent one; `received`: the bytes read before the abort.
 */
export class BodyTooLarge extends Error {
  constructor(
    readonly raw: RawResponse,
    readonly cap: number,
    readonly received: number,
    readonly declared: number | undefined,
  ) {
    super('response body over the cap')
  }
}

/**
 * The chunks of a body as one Buffer of its own (the log keeps it): joined in one copy into memory of its
 * own; a lone chunk that shares its memory (with the response head, or with other reads of the socket) is
 * copied too, so the log holds only the body's bytes. `limit`: join only the first `limit` bytes.
 */
function joinBody(chunks: Buffer[], length: number, limit = length): Buffer {
  const size = Math.min(length, limit)
  const only = chunks.length === 1 ? chunks[0]! : undefined
  if (only && size === only.byteLength && only.byteLength === only.buffer.byteLength) return only
  // Not Buffer.concat: a small result would be a view of Node's shared 8 KiB pool, held as long as the log.
  const out = Buffer.allocUnsafeSlow(size)
  let at = 0
  for (const chunk of chunks) {
    if (at >= size) break
    at += chunk.copy(out, at, 0, Math.min(chunk.length, size - at))
  }
  return out
}

function contentLengthOf(headers: RawResponse['headers']): number | undefined {
  const v = headers['content-length']
  const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN
  return Number.isFinite(n) ? n : undefined
}

/**
 * What one response has sent so far, its body kept up to the cap: `head` and `data` say when to stop
 * reading (the body is over the cap and its preview is whole).
 */
class BoundedBody {
  private chunks: Buffer[] = []
  private length = 0
  private received = 0
  private status = 0
  private statusText = ''
  private headers: RawResponse['headers'] = {}
  /** Set once the body is known to be over the cap: only the preview is kept from then on. */
  private over: { declared: number | undefined } | undefined
  private readonly preview: number

  constructor(
    private readonly method: string,
    private readonly maxBody: number,
  ) {
    this.preview = Math.min(BODY_PREVIEW_BYTES, maxBody)
  }

  /** The response head; true when reading should stop now (a Content-Length over the cap, no preview kept). */
  head(status: number, headers: RawResponse['headers'], statusText: string | undefined): boolean {
    this.status = status
    this.statusText = statusText ?? ''
    this.headers = headers
    const declared = this.method === 'HEAD' ? undefined : contentLengthOf(headers)
    if (declared === undefined || declared <= this.maxBody) return false
    this.over = { declared }
    return this.preview === 0
  }

  /** A chunk of the body; true when reading should stop now. */
  data(chunk: Buffer): boolean {
    this.received += chunk.length
    if (!this.over && this.length + chunk.length > this.maxBody) this.over = { declared: undefined }
    if (!this.over) {
      this.keep(chunk)
      return false
    }
    // Keep what the preview still lacks, then stop reading.
    if (this.length < this.preview) this.keep(chunk)
    return this.length >= this.preview
  }

  /** Whether the body was found over the cap (a Content-Length over it counts even if the body then ran short). */
  get isOver(): boolean {
    return this.over !== undefined
  }

  /** The refusal of a body over the cap, holding its preview; the chunks are let go. */
  refusal(): BodyTooLarge {
    const raw = this.response(this.preview)
    this.chunks = []
    return new BodyTooLarge(raw, this.maxBody, this.received, this.over?.declared)
  }

  response(limit = this.length): RawResponse {
    const body = joinBody(this.chunks, this.length, limit)
    return { status: this.status, statusText: this.statusText, headers: this.headers, body }
  }

  private keep(chunk: Buffer): void {
    this.chunks.push(chunk)
    this.length += chunk.length
  }
}

/** A request's own timeout: aborts what is in flight (or what starts later) with a TimeoutError. */
class RequestTimer {
  error: Error | undefined
  private controller: Dispatcher.DispatchController | undefined
  private readonly timer: ReturnType<typeof setTimeout> | undefined

  constructor(timeoutMs: number | undefined) {
    if (!timeoutMs) return
    this.timer = setTimeout(() => {
      this.error = new DOMException(`The operation was aborted due to timeout (${timeoutMs} ms)`, 'TimeoutError')
      this.controller?.abort(this.error)
    }, timeoutMs)
  }

  started(controller: Dispatcher.DispatchController): void {
    this.controller = controller
    if (this.error) controller.abort(this.error)
  }

  clear(): void {
    if (this.timer) clearTimeout(this.timer)
  }
}

/**
 * One request through undici's dispatcher with a handler that collects the body's chunks as they arrive:
 * none of `request()`'s body stream (a Readable per response, read back through an async iterator), which
 * cost ~65 µs of CPU per request here. Errors are undici's own (UND_ERR_*, socket and TLS errors), as
 * `request()` throws them; `timeoutMs` aborts with a TimeoutError as `AbortSignal.timeout` does.
 * `marks.headersAt`: performance.now() when the response head arrived (set on failure too).
 *
 * The body is bounded by `maxBody`: a Content-Length over it is known at the head, and then only the
 * first BODY_PREVIEW_BYTES are read; without one, chunks are kept until the cap is crossed. Either way
 * the request is aborted and rejects with BodyTooLarge holding the preview, so memory stays near the cap
 * whatever the bank sends.
 */
export function dispatchRequest(
  agent: Agent,
  url: URL,
  method: string,
  headers: string[],
  body: Buffer | undefined,
  timeoutMs: number | undefined,
  maxBody: number,
  marks: { headersAt?: number },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const answer = new BoundedBody(method, maxBody)
    const timer = new RequestTimer(timeoutMs)
    let tooLarge: BodyTooLarge | undefined
    const refuse = (c: Dispatcher.DispatchController) => c.abort((tooLarge = answer.refusal()))
    const options: Dispatcher.DispatchOptions = {
      origin: url.origin,
      path: url.pathname + url.search,
      method: method as Dispatcher.HttpMethod,
      headers,
    }
    if (body) options.body = body
    agent.dispatch(options, {
      onRequestStart: (c) => timer.started(c),
      onResponseStart(c, statusCode, h, statusMessage) {
        marks.headersAt = performance.now()
        if (answer.head(statusCode, h as RawResponse['headers'], statusMessage)) refuse(c)
      },
      onResponseData(c, chunk) {
        if (!tooLarge && answer.data(chunk)) refuse(c)
      },
      onResponseEnd() {
        timer.clear()
        if (tooLarge) return
        // A Content-Length over the cap, then a shorter body: still refused, the head said what it is.
        if (answer.isOver) reject(answer.refusal())
        else resolve(answer.response())
      },
      onResponseError(_c, err) {
        timer.clear()
        reject(tooLarge ?? timer.error ?? err)
      },
    })
  })
}

const sizeText = (bytes: number) =>
  (bytes >= MIB ? `${+(bytes / MIB).toFixed(1)} MiB` : `${Math.round(bytes / 1024)} KiB`) + ` (${bytes} bytes)`

/** A body cap as given: a whole number of bytes, at least 1 KiB. */
export function checkMaxBody(bytes: number, where: string): number {
  if (!Number.isSafeInteger(bytes) || bytes < 1024) {
    throw new AppError('INVALID_INPUT', {
      what: `The largest response body for ${where} is ${bytes}`,
      cause: 'it must be a whole number of bytes, at least 1 KiB',
      fix: `set ${MAX_BODY_SETTING} to a number of MiB such as 50`,
    })
  }
  return bytes
}

/** The error of a response whose body is over the cap. */
export function tooLargeError(req: { method: string; url: string }, err: BodyTooLarge): AppError {
  const size =
    err.declared !== undefined
      ? `${sizeText(err.declared)} (its Content-Length)`
      : `more than ${sizeText(err.cap)} (no Content-Length; ${sizeText(err.received)} read before stopping)`
  return new AppError('RESPONSE_TOO_LARGE', {
    what: `${req.method} ${req.url} answered ${err.raw.status} with a body of ${size}, over the ${sizeText(err.cap)} the console reads`,
    cause:
      'the console stops reading a body past its cap so one answer cannot exhaust its memory; the exchange keeps the first bytes as a preview',
    fix: `if the bank really sends bodies this large, raise ${MAX_BODY_SETTING}; otherwise ask for less (a shorter period, a smaller page)`,
    details: {
      status: err.raw.status,
      capBytes: err.cap,
      ...(err.declared !== undefined ? { contentLength: err.declared } : {}),
      receivedBytes: err.received,
      previewBytes: err.raw.body.length,
    },
  })
}
