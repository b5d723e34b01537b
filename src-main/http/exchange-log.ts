import { randomUUID } from 'node:crypto'
import type { BodyDto, ExchangeDto, PresentedCertificateDto, TimingsDto, TlsInfoDto } from '../contract/exchange.ts'
import type { AppErrorData } from '../core/app-error.ts'
import { AppError } from '../core/app-error.ts'
import { isSecretName, isSecretParam, redactBody, redactHeaders, redactSecretValue, redactText, redactUrl } from '../core/redact.ts'
import { decodeFound, findJwts, type FoundJwt } from './jwt-finder.ts'

/** An exchange as the HTTP client hands it to the log, with whole bodies (Buffers are kept as given, not copied: never change them after). */
export interface ExchangeInput {
  startedAt: Date
  environmentId?: string
  identityId?: string
  label?: string
  request: { method: string; url: string; headers: Array<[string, string]>; body?: Uint8Array }
  response?: { status: number; statusText?: string; headers: Array<[string, string]>; body?: Uint8Array }
  timings: TimingsDto
  reusedConnection: boolean
  presentedCertificate: PresentedCertificateDto | null
  tls?: TlsInfoDto
  error?: AppErrorData
}

interface StoredBody {
  bytes: Buffer
  size: number
  truncated: boolean
  contentType?: string
}

interface ExchangeRecord extends Omit<ExchangeInput, 'request' | 'response' | 'startedAt'> {
  id: string
  startedAt: string
  request: { method: string; url: string; headers: Array<[string, string]>; body?: StoredBody }
  response?: { status: number; statusText?: string; headers: Array<[string, string]>; body?: StoredBody }
  /** Found when the exchange is first viewed (most never are), or at once when a body was cut. */
  jwts?: FoundJwt[]
}

/**
 * What a list of exchanges shows of one, cheap to make (no body is read): handed to `onDidRecordHead`
 * listeners as each exchange is recorded. The URL is redacted.
 */
export interface ExchangeHead {
  id: string
  startedAt: string
  method: string
  url: string
  label?: string
  status?: number
  errorCode?: string
  totalMs: number
  /** Bytes of the response body as received (before any cut). */
  responseSize: number
}

export interface ExchangeLogOptions {
  /** How many exchanges are kept; the oldest go first. Default 500. */
  capacity?: number
  /** Bytes of each body kept; longer bodies are cut, their full size kept. Default 256 KiB. */
  bodyCap?: number
}

const optionalBody = (body: StoredBody | undefined) => (body ? { body } : {})

const contentTypeOf = (headers: Array<[string, string]>) => headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1]

function isText(bytes: Buffer, contentType?: string): boolean {
  if (contentType && /json|jwt|jose|text|xml|x-www-form-urlencoded|javascript/i.test(contentType)) return true
  if (contentType && /octet-stream|pdf|image|zip/i.test(contentType)) return false
  return !bytes.includes(0) && Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes)
}

const SECRET_AT_END = /("([A-Za-z_]+)"\s*:\s*")([^"]*)$/

function bodyView(body: StoredBody | undefined, reveal: boolean): BodyDto | undefined {
  if (!body) return undefined
  const base = { size: body.size, truncated: body.truncated, ...(body.contentType ? { contentType: body.contentType } : {}) }
  if (!isText(body.bytes, body.contentType)) return { ...base, text: body.bytes.toString('base64'), encoding: 'base64' }
  let text = body.bytes.toString('utf8')
  if (!reveal) {
    text = redactBody(text, body.contentType)
    // A body cut in the middle of a secret member: hide the part that is there.
    if (body.truncated) text = text.replace(SECRET_AT_END, (whole, head: string, name: string) => (isSecretName(name) ? `${head}REDACTED` : whole))
  }
  return { ...base, text, encoding: 'utf8' }
}

function isSecretJwt(found: FoundJwt): boolean {
  return found.name === 'authorization' || isSecretName(found.name) || isSecretParam(found.name)
}

function redactError(error: AppErrorData): AppErrorData {
  return { ...error, what: redactText(redactUrl(error.what)), cause: redactText(error.cause) }
}

/**
 * The exchange log: a ring buffer of every HTTP exchange, bodies cut at a cap (their size kept), JWTs
 * found and decoded. Views are redacted (authorization headers, client secrets, assertions, codes,
 * tokens) unless `reveal` is asked for explicitly; the raw record never leaves the main process.
 *
 * @example const log = new ExchangeLog({ capacity: 200 }); log.onDidRecordExchange((e) => send(e))
 */
export class ExchangeLog {
  private readonly records: ExchangeRecord[] = []
  private readonly listeners = new Set<(exchange: ExchangeDto) => void>()
  private readonly headListeners = new Set<(head: ExchangeHead) => void>()
  readonly capacity: number
  readonly bodyCap: number

  constructor(options: ExchangeLogOptions = {}) {
    this.capacity = options.capacity ?? 500
    this.bodyCap = options.bodyCap ?? 256 * 1024
  }

  private store(bytes: Uint8Array | undefined, contentType: string | undefined): StoredBody | undefined {
    if (!bytes || bytes.length === 0) return undefined
    const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes)
    return { bytes: buf.length > this.bodyCap ? buf.subarray(0, this.bodyCap) : buf, size: buf.length, truncated: buf.length > this.bodyCap, ...(contentType ? { contentType } : {}) }
  }

  /**
   * Records an exchange and tells the listeners (`onDidRecordHead`: its list row; `onDidRecordExchange`:
   * the redacted view). Returns its id. The JWTs in it are found when it is first viewed, from the bodies
   * kept (whole unless over the cap; a cut body is searched at once, whole).
   */
  record(input: ExchangeInput): string {
    const reqType = contentTypeOf(input.request.headers)
    const resType = input.response ? contentTypeOf(input.response.headers) : undefined
    const { request, response, startedAt, ...rest } = input
    const requestBody = this.store(request.body, reqType)
    const responseBody = this.store(response?.body, resType)
    const record: ExchangeRecord = {
      ...rest,
      id: randomUUID(),
      startedAt: startedAt.toISOString(),
      request: { method: request.method, url: request.url, headers: request.headers, ...optionalBody(requestBody) },
      ...(response ? { response: { status: response.status, ...(response.statusText ? { statusText: response.statusText } : {}), headers: response.headers, ...optionalBody(responseBody) } } : {}),
    }
    if (requestBody?.truncated || responseBody?.truncated) record.jwts = this.findJwts(record, input.request.body, input.response?.body)
    this.records.push(record)
    while (this.records.length > this.capacity) this.records.shift()
    if (this.headListeners.size) {
      const head: ExchangeHead = {
        id: record.id,
        startedAt: record.startedAt,
        method: request.method,
        url: redactUrl(request.url),
        ...(record.label ? { label: record.label } : {}),
        ...(response ? { status: response.status } : {}),
        ...(record.error ? { errorCode: record.error.code } : {}),
        totalMs: record.timings.total,
        responseSize: responseBody?.size ?? 0,
      }
      for (const listener of this.headListeners) listener(head)
    }
    if (this.listeners.size) {
      const view = this.view(record, false)
      for (const listener of this.listeners) listener(view)
    }
    return record.id
  }

  /** The JWTs of an exchange, searched in `requestBody` / `responseBody` when given, else in the bodies kept. */
  private findJwts(r: ExchangeRecord, requestBody?: Uint8Array, responseBody?: Uint8Array): FoundJwt[] {
    const text = (b?: Uint8Array) => (b && b.length ? Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8') : undefined)
    return findJwts({
      url: r.request.url, requestHeaders: r.request.headers, requestBody: text(requestBody ?? r.request.body?.bytes), requestContentType: r.request.body?.contentType ?? contentTypeOf(r.request.headers),
      responseHeaders: r.response?.headers, responseBody: text(responseBody ?? r.response?.body?.bytes), responseContentType: r.response?.body?.contentType ?? (r.response ? contentTypeOf(r.response.headers) : undefined),
    })
  }

  private view(r: ExchangeRecord, reveal: boolean): ExchangeDto {
    const headers = (h: Array<[string, string]>) => (reveal ? h.map(([k, v]) => [k, v] as [string, string]) : redactHeaders(h.map(([k, v]) => [k, v] as [string, string])))
    return {
      id: r.id,
      startedAt: r.startedAt,
      ...(r.environmentId ? { environmentId: r.environmentId } : {}),
      ...(r.identityId ? { identityId: r.identityId } : {}),
      ...(r.label ? { label: r.label } : {}),
      request: { method: r.request.method, url: reveal ? r.request.url : redactUrl(r.request.url), headers: headers(r.request.headers), ...(r.request.body ? { body: bodyView(r.request.body, reveal) } : {}) },
      ...(r.response ? { response: { status: r.response.status, ...(r.response.statusText ? { statusText: r.response.statusText } : {}), headers: headers(r.response.headers).map(([k, v]) => [k, k.toLowerCase() === 'location' && !reveal ? redactUrl(v) : v] as [string, string]), ...(r.response.body ? { body: bodyView(r.response.body, reveal) } : {}) } } : {}),
      timings: r.timings,
      reusedConnection: r.reusedConnection,
      presentedCertificate: r.presentedCertificate,
      ...(r.tls ? { tls: r.tls } : {}),
      ...(r.error ? { error: reveal ? r.error : redactError(r.error) } : {}),
      jwts: (r.jwts ??= this.findJwts(r)).map((j) => decodeFound(j, reveal || !isSecretJwt(j) ? j.compact : redactSecretValue(j.compact))),
      redacted: !reveal,
    }
  }

  /** Every exchange kept, oldest first; redacted unless `reveal`. */
  list(options: { reveal?: boolean } = {}): ExchangeDto[] {
    return this.records.map((r) => this.view(r, options.reveal === true))
  }

  /** One exchange; throws NOT_FOUND when it is unknown or was pushed out of the log. */
  get(id: string, options: { reveal?: boolean } = {}): ExchangeDto {
    const record = this.records.find((r) => r.id === id)
    if (!record) {
      throw new AppError('NOT_FOUND', { what: `Showing exchange ${id} failed`, cause: `it is not in the exchange log (the log keeps the last ${this.capacity} exchanges, or it was cleared)`, fix: 'pick an exchange from the current list' })
    }
    return this.view(record, options.reveal === true)
  }

  /** Removes every exchange; returns how many there were. */
  clear(): number {
    const n = this.records.length
    this.records.length = 0
    return n
  }

  /** Subscribes to the list rows of new exchanges (no body read, cheap); returns the unsubscribe function. */
  onDidRecordHead(listener: (head: ExchangeHead) => void): () => void {
    this.headListeners.add(listener)
    return () => this.headListeners.delete(listener)
  }

  /** Subscribes to new exchanges (redacted views, each body redacted: costly for large bodies); returns the unsubscribe function. */
  onDidRecordExchange(listener: (exchange: ExchangeDto) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}
