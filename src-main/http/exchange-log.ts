import { randomUUID } from 'node:crypto'
import type {
  ExchangeDto,
  PresentedCertificateDto,
  SecretItemDto,
  TimingsDto,
  TlsInfoDto,
} from '../contract/exchange.ts'
import type { AppErrorDto } from '../contract/errors.ts'
import { AppError } from '../core/app-error.ts'
import { maskSecret, redactHeaders, redactJson, redactUrl } from '../core/redact.ts'
import { SecretCollector } from '../core/secret-collector.ts'
import { BodyStore, type BodyStats, type StoredBody } from './body-store.ts'
import { diagnoseExchange } from './exchange-diagnosis.ts'
import { bodyView, contentTypeOf, isSecretJwt, redactError } from './exchange-view.ts'
import { decodeFound, findJwts, type FoundJwt } from './jwt-finder.ts'

export type { BodyStats } from './body-store.ts'

/** An exchange as the HTTP client hands it to the log, with whole bodies (Buffers are kept as given, not copied: never change them after). */
export interface ExchangeInput {
  startedAt: Date
  environmentId?: string
  identityId?: string
  label?: string
  request: { method: string; url: string; headers: Array<[string, string]>; body?: Uint8Array }
  /**
   * `bodySize`: the size of the whole body when `body` is only its start (a body over the client's cap:
   * the preview kept, the size declared or read); the view then shows it as cut.
   */
  response?: {
    status: number
    statusText?: string
    headers: Array<[string, string]>
    body?: Uint8Array
    bodySize?: number
  }
  timings: TimingsDto
  reusedConnection: boolean
  presentedCertificate: PresentedCertificateDto | null
  tls?: TlsInfoDto
  error?: AppErrorDto
}

interface ExchangeRecord extends Omit<ExchangeInput, 'request' | 'response' | 'startedAt'> {
  id: string
  startedAt: string
  request: { method: string; url: string; headers: Array<[string, string]>; body?: StoredBody }
  response?: { status: number; statusText?: string; headers: Array<[string, string]>; body?: StoredBody }
  /** Found when the exchange is first viewed (most never are), or at once when a body was cut. */
  jwts?: FoundJwt[]
  /** The secret values the user revealed, one by one (`reveal`): shown as they are in views and exports. */
  revealed?: Set<string>
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
  /** The headers as sent and received, not redacted (main side only: the conformance lens reads them). */
  requestHeaders: Array<[string, string]>
  responseHeaders?: Array<[string, string]>
}

export interface ExchangeLogOptions {
  /** How many exchanges are kept; the oldest go first. Default 500. */
  capacity?: number
  /** Bytes of each body kept; longer bodies are cut, their full size kept. Default 256 KiB. */
  bodyCap?: number
  /**
   * Bytes of bodies kept as received, the newest ones. Past it, the oldest raw bodies are compressed
   * (gzip, off the event loop, in batches) and inflated again when viewed. Default 64 MiB.
   */
  rawBodyBudget?: number
  /**
   * Bytes of compressed bodies kept. Past it, the oldest compressed bodies are dropped: their exchanges
   * stay in the log (list row, headers, timings, size), their views say the body is no longer kept.
   * Default 96 MiB.
   */
  compressedBodyBudget?: number
}

/**
 * The exchange log: a ring buffer of every HTTP exchange, bodies cut at a cap (their size kept), JWTs
 * found and decoded. Views are masked by content (tokens, codes, credentials masked, private keys
 * removed); the user reveals one secret at a time (`reveal`), never a private key. The raw record never
 * leaves the main process.
 *
 * Bodies live under a byte budget: the newest `rawBodyBudget` bytes as received; older ones compressed
 * in batches off the event loop (inflated when viewed); past `compressedBodyBudget` of compressed bytes
 * the oldest bodies are dropped, their exchanges kept, their views saying so.
 *
 * @example const log = new ExchangeLog({ capacity: 200 }); log.onDidRecordExchange((e) => send(e))
 */
export class ExchangeLog {
  private readonly records: ExchangeRecord[] = []
  private readonly bodies: BodyStore
  private readonly listeners = new Set<(exchange: ExchangeDto) => void>()
  private readonly headListeners = new Set<(head: ExchangeHead) => void>()
  readonly capacity: number
  /** Exchanges handed to `recordLater`, in order, not yet made into records. */
  private queued: Array<{ id: string; build: () => ExchangeInput }> = []
  private flushScheduled = false

  constructor(options: ExchangeLogOptions = {}) {
    this.capacity = options.capacity ?? 500
    const bodyCap = options.bodyCap ?? 256 * 1024
    const rawBodyBudget = options.rawBodyBudget ?? 64 * 1024 * 1024
    const compressedBodyBudget = options.compressedBodyBudget ?? 96 * 1024 * 1024
    for (const [name, value] of [
      ['capacity', this.capacity],
      ['bodyCap', bodyCap],
      ['rawBodyBudget', rawBodyBudget],
      ['compressedBodyBudget', compressedBodyBudget],
    ] as const) {
      if (typeof value !== 'number' || Number.isNaN(value) || value < 0 || (name === 'capacity' && value < 1)) {
        throw new AppError('INVALID_INPUT', {
          what: `The exchange log's ${name} is ${value}.`,
          cause: `It must be a number of ${name === 'capacity' ? 'exchanges, at least 1' : 'bytes, 0 or more'}.`,
          fix: `Pass a ${name === 'capacity' ? 'positive' : 'non-negative'} number, or leave it out for the default.`,
        })
      }
    }
    this.bodies = new BodyStore(bodyCap, rawBodyBudget, compressedBodyBudget)
  }

  /**
   * Records an exchange and tells the listeners (`onDidRecordHead`: its list row; `onDidRecordExchange`:
   * the redacted view). Returns its id. The JWTs in it are found when it is first viewed, from the bodies
   * kept (whole unless over the cap; a cut body is searched at once, whole).
   */
  record(input: ExchangeInput): string {
    this.flush()
    return this.make(randomUUID(), input)
  }

  /**
   * Records an exchange a moment later: its id now, its record (and the listeners' calls) on the next
   * turn of the event loop, or at once when anything reads the log. A client calls this as a response
   * ends, so the bookkeeping runs while its next request is on the wire instead of before it is sent.
   * `build` is called once, in order with every other exchange; what it returns must not change after.
   */
  recordLater(build: () => ExchangeInput): string {
    const id = randomUUID()
    this.queued.push({ id, build })
    if (!this.flushScheduled) {
      this.flushScheduled = true
      setImmediate(() => this.flush())
    }
    return id
  }

  /** Makes the records of every exchange handed to `recordLater` so far (every read does this first). */
  flush(): void {
    this.flushScheduled = false
    if (!this.queued.length) return
    const queued = this.queued
    this.queued = []
    for (const q of queued) {
      let input: ExchangeInput
      try {
        input = q.build()
      } catch (err) {
        // Never lose the exchange's place in the log, nor throw from a timer: say what went wrong instead.
        input = {
          startedAt: new Date(),
          request: { method: '?', url: '', headers: [] },
          timings: { connect: 0, tls: 0, firstByte: 0, total: 0 },
          reusedConnection: false,
          presentedCertificate: null,
          error: {
            code: 'INTERNAL',
            what: 'This exchange could not be recorded.',
            cause: (err as Error)?.message ?? String(err),
            fix: 'Re-run the step; if it happens again, report it with the steps that led here.',
          },
        }
      }
      this.make(q.id, input)
    }
  }

  private make(id: string, input: ExchangeInput): string {
    const reqType = contentTypeOf(input.request.headers)
    const resType = input.response ? contentTypeOf(input.response.headers) : undefined
    const { request, response } = input
    const requestBody = this.bodies.store(request.body, reqType)
    const responseBody = this.bodies.store(response?.body, resType, response?.bodySize)
    // Plain assignments, not conditional spreads: this runs for every exchange (see HttpClient.exchangeInput).
    const record: ExchangeRecord = {
      id,
      startedAt: input.startedAt.toISOString(),
      request: { method: request.method, url: request.url, headers: request.headers },
      timings: input.timings,
      reusedConnection: input.reusedConnection,
      presentedCertificate: input.presentedCertificate,
    }
    if (requestBody) record.request.body = requestBody
    if (input.environmentId) record.environmentId = input.environmentId
    if (input.identityId) record.identityId = input.identityId
    if (input.label) record.label = input.label
    if (input.tls) record.tls = input.tls
    if (input.error) record.error = input.error
    if (response) {
      const kept: NonNullable<ExchangeRecord['response']> = { status: response.status, headers: response.headers }
      if (response.statusText) kept.statusText = response.statusText
      if (responseBody) kept.body = responseBody
      record.response = kept
    }
    if (requestBody?.truncated || responseBody?.truncated)
      record.jwts = this.findJwts(record, input.request.body, input.response?.body)
    this.records.push(record)
    if (this.records.length > this.capacity) {
      while (this.records.length > this.capacity) {
        const old = this.records.shift()!
        this.bodies.forget(old.request.body, old.response?.body)
      }
      this.bodies.trimQueues()
    }
    this.bodies.compressIfOver()
    if (this.headListeners.size) {
      const head: ExchangeHead = {
        id: record.id,
        startedAt: record.startedAt,
        method: request.method,
        url: redactUrl(request.url),
        totalMs: record.timings.total,
        responseSize: responseBody?.size ?? 0,
        requestHeaders: request.headers,
      }
      if (record.label) head.label = record.label
      if (response) {
        head.status = response.status
        head.responseHeaders = response.headers
      }
      if (record.error) head.errorCode = record.error.code
      for (const listener of this.headListeners) listener(head)
    }
    if (this.listeners.size) {
      const view = this.view(record, false)
      for (const listener of this.listeners) listener(view)
    }
    return record.id
  }

  /** Resolves when no compression is running (tests, measurements). */
  async idle(): Promise<void> {
    this.flush()
    await this.bodies.idle()
  }

  /** Where the body bytes are: raw, compressed, dropped. */
  bodyStats(): BodyStats {
    this.flush()
    return this.bodies.stats()
  }

  /** The JWTs of an exchange, searched in `requestBody` / `responseBody` when given, else in the bodies kept. */
  private findJwts(
    r: ExchangeRecord,
    requestBody?: Uint8Array,
    responseBody?: Uint8Array,
    texts?: { request?: () => string | undefined; response?: () => string | undefined },
  ): FoundJwt[] {
    const text = (b?: Uint8Array) =>
      b && b.length ? Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8') : undefined
    return findJwts({
      url: r.request.url,
      requestHeaders: r.request.headers,
      requestBody: requestBody ? text(requestBody) : texts?.request?.(),
      requestContentType: r.request.body?.contentType ?? contentTypeOf(r.request.headers),
      responseHeaders: r.response?.headers,
      responseBody: responseBody ? text(responseBody) : texts?.response?.(),
      responseContentType:
        r.response?.body?.contentType ?? (r.response ? contentTypeOf(r.response.headers) : undefined),
    })
  }

  /**
   * The view of an exchange: masked (tokens, codes and credentials masked unless revealed one by one,
   * private keys removed, each secret listed in `secrets`), or `raw` (main side only).
   */
  private view(r: ExchangeRecord, raw: boolean, collector = new SecretCollector(r.revealed)): ExchangeDto {
    const ctx = (where: string) => (raw ? undefined : collector.ctx(where))
    const headers = (h: Array<[string, string]>, where: string) => {
      const copy = h.map(([k, v]) => [k, v] as [string, string])
      const c = ctx(where)
      return c ? redactHeaders(copy, c) : copy
    }
    // Each body's bytes are read (inflated) and decoded once for the view and the JWT search.
    const side = (body: StoredBody | undefined) => {
      const bytes = this.bodies.bytesOf(body)
      let decoded: string | undefined
      return { bytes, text: () => (bytes ? (decoded ??= bytes.toString('utf8')) : undefined) }
    }
    const req = side(r.request.body)
    const res = side(r.response?.body)
    const jwts = (r.jwts ??= this.findJwts(r, undefined, undefined, { request: req.text, response: res.text }))
    const body = (stored: StoredBody, s: typeof req, where: string) =>
      bodyView(
        stored,
        s.bytes,
        () => s.text() ?? '',
        ctx(where),
        () => this.bodies.droppedReason(),
      )
    const urlCtx = ctx('request URL')
    const view: ExchangeDto = {
      id: r.id,
      startedAt: r.startedAt,
      ...(r.environmentId ? { environmentId: r.environmentId } : {}),
      ...(r.identityId ? { identityId: r.identityId } : {}),
      ...(r.label ? { label: r.label } : {}),
      request: {
        method: r.request.method,
        url: urlCtx ? redactUrl(r.request.url, urlCtx) : r.request.url,
        headers: headers(r.request.headers, 'request headers'),
        ...(r.request.body ? { body: body(r.request.body, req, 'request body') } : {}),
      },
      ...(r.response
        ? {
            response: {
              status: r.response.status,
              ...(r.response.statusText ? { statusText: r.response.statusText } : {}),
              headers: headers(r.response.headers, 'response headers'),
              ...(r.response.body ? { body: body(r.response.body, res, 'response body') } : {}),
            },
          }
        : {}),
      timings: r.timings,
      reusedConnection: r.reusedConnection,
      presentedCertificate: r.presentedCertificate,
      ...(r.tls ? { tls: r.tls } : {}),
      ...(r.error ? { error: raw ? r.error : redactError(r.error, collector.ctx('error')) } : {}),
      jwts: jwts.map((j) => {
        if (raw) return decodeFound(j, j.compact)
        const c = collector.ctx(`JWT ${j.location}`)
        const decoded = decodeFound(j, isSecretJwt(j) ? maskSecret(j.compact, 'token', j.name, c) : j.compact)
        // Claims are what a developer debugs, and stay; anything secret inside them does not.
        if (decoded.claims) decoded.claims = redactJson(decoded.claims, c) as Record<string, unknown>
        return decoded
      }),
      redacted: false,
    }
    view.diagnosis = diagnoseExchange(view)
    if (!raw) {
      const secrets: SecretItemDto[] = collector.items({ distinct: true })
      view.redacted = collector.anyHidden()
      if (secrets.length) view.secrets = secrets
    }
    return view
  }

  /** Every exchange kept, oldest first; masked (see `get`) unless `raw` (main side only). */
  list(options: { raw?: boolean } = {}): ExchangeDto[] {
    this.flush()
    return this.records.map((r) => this.view(r, options.raw === true))
  }

  /**
   * The response body of an exchange as received (inflated when kept compressed; never redacted: main side
   * only), or undefined when the exchange or its body is no longer kept (cleared, pushed out, dropped).
   */
  responseBody(id: string): Buffer | undefined {
    this.flush()
    for (let i = this.records.length - 1; i >= 0; i--) {
      const r = this.records[i]!
      if (r.id === id) return r.response?.body?.truncated ? undefined : this.bodies.bytesOf(r.response?.body)
    }
    return undefined
  }

  /**
   * One exchange: masked (tokens, codes, credentials masked except those revealed with `reveal`;
   * private keys removed), or as recorded with `raw: true` (main side only: never hand it out). Throws
   * NOT_FOUND when it is unknown or was pushed out of the log.
   */
  get(id: string, options: { raw?: boolean } = {}): ExchangeDto {
    return this.view(this.recordOf(id, 'Showing'), options.raw === true)
  }

  /**
   * Reveals one secret of an exchange (its `ref` from the view's `secrets`): returns the value, and from
   * now on the exchange's views (and so its curl and HAR) show it. A private key is never revealed.
   */
  reveal(id: string, ref: string): { value: string; item: SecretItemDto } {
    const record = this.recordOf(id, 'Revealing a secret of')
    const collector = new SecretCollector(record.revealed)
    this.view(record, false, collector)
    const hit = collector.find(ref)
    if (!hit)
      throw new AppError('NOT_FOUND', {
        what: `Exchange ${id} has no secret ${ref}.`,
        cause: 'The handle comes from another exchange, or from a view of an earlier console run.',
        fix: 'Open the exchange again and reveal an item of its list of secrets.',
      })
    if (!hit.item.revealable)
      throw new AppError('INVALID_INPUT', {
        what: `The ${hit.item.name} in the ${hit.item.where} is private key material.`,
        cause: 'Private keys never leave the main side, in any encoding.',
        fix: 'Use the key files of the TPP identity where you need them; the console keeps them encrypted.',
      })
    ;(record.revealed ??= new Set()).add(hit.value)
    return { value: hit.value, item: { ...hit.item, shown: hit.value, revealed: true } }
  }

  private recordOf(id: string, what: string): ExchangeRecord {
    this.flush()
    const record = this.records.find((r) => r.id === id)
    if (!record) {
      throw new AppError('NOT_FOUND', {
        what: `${what} exchange ${id} failed`,
        cause: `it is not in the exchange log (the log keeps the last ${this.capacity} exchanges, or it was cleared)`,
        fix: 'pick an exchange from the current list',
      })
    }
    return record
  }

  /** Removes every exchange; returns how many there were. */
  clear(): number {
    this.flush()
    const n = this.records.length
    for (const r of this.records) this.bodies.forget(r.request.body, r.response?.body)
    this.records.length = 0
    this.bodies.clear()
    return n
  }

  /** Subscribes to the list rows of new exchanges (no body read, cheap); returns the unsubscribe function. */
  onDidRecordHead(listener: (head: ExchangeHead) => void): () => void {
    this.headListeners.add(listener)
    return () => this.headListeners.delete(listener)
  }

  /** Subscribes to new exchanges (masked views, each body searched: costly for large bodies); returns the unsubscribe function. */
  onDidRecordExchange(listener: (exchange: ExchangeDto) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}
