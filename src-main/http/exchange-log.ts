import { randomUUID } from 'node:crypto'
import type { ExchangeDto, SecretItemDto } from '../contract/exchange.ts'
import { AppError } from '../core/app-error.ts'
import { redactUrl } from '../core/redact-text.ts'
import { SecretCollector } from '../core/secret-collector.ts'
import { BodyStore, type BodyStats } from './body-store.ts'
import { makeRecord, unrecordedInput, type ExchangeInput, type ExchangeRecord } from './exchange-record.ts'
import { exchangeView } from './exchange-view.ts'

export type { BodyStats } from './body-store.ts'

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
 * removed); `reveal` hands one secret's value to its caller (never a private key) and `get` shows the refs it
 * is given in that one view, the log remembering neither. The raw record never leaves the main process.
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
  /** Bytes of a body kept whole; a longer one is kept cut at this many (its size kept). */
  readonly wholeBodyCap: number
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
    this.wholeBodyCap = bodyCap
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
        input = unrecordedInput(err)
      }
      this.make(q.id, input)
    }
  }

  private make(id: string, input: ExchangeInput): string {
    const record = makeRecord(id, input, this.bodies)
    const { request, response } = record
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
        responseSize: response?.body?.size ?? 0,
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
      const view = exchangeView(record, this.bodies, false)
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

  /** Every exchange kept, oldest first; masked (see `get`) unless `raw` (main side only). */
  list(options: { raw?: boolean } = {}): ExchangeDto[] {
    this.flush()
    return this.records.map((r) => exchangeView(r, this.bodies, options.raw === true))
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
   * One exchange: masked (tokens, codes, credentials masked; private keys removed), or as recorded with
   * `raw: true` (main side only: never hand it out). `reveal`: refs of secrets (from the view's `secrets`)
   * shown as they are in this one view and nowhere else: the log keeps no trace of it, so every other view
   * and every export stays masked. Throws NOT_FOUND when the exchange is unknown or was pushed out of the
   * log, or a ref is not one of its secrets; INVALID_INPUT for a private key.
   */
  get(id: string, options: { raw?: boolean; reveal?: readonly string[] } = {}): ExchangeDto {
    const record = this.recordOf(id, 'Showing')
    if (options.raw === true || !options.reveal?.length) return exchangeView(record, this.bodies, options.raw === true)
    const values = new Set(options.reveal.map((ref) => this.secretOf(record, ref).value))
    return exchangeView(record, this.bodies, false, new SecretCollector(values))
  }

  /**
   * One secret of an exchange (its `ref` from the view's `secrets`): its value, for the caller alone. Nothing
   * is kept: the exchange's views, curl, HAR and Postman stay masked. A private key is never revealed.
   */
  reveal(id: string, ref: string): { value: string; item: SecretItemDto } {
    const hit = this.secretOf(this.recordOf(id, 'Revealing a secret of'), ref)
    return { value: hit.value, item: { ...hit.item, shown: hit.value, revealed: true } }
  }

  private secretOf(record: ExchangeRecord, ref: string): { item: SecretItemDto; value: string } {
    const collector = new SecretCollector()
    exchangeView(record, this.bodies, false, collector)
    const hit = collector.find(ref)
    if (!hit)
      throw new AppError('NOT_FOUND', {
        what: `Exchange ${record.id} has no secret ${ref}.`,
        cause: 'The handle comes from another exchange, or from a view of an earlier console run.',
        fix: 'Open the exchange again and reveal an item of its list of secrets.',
      })
    if (!hit.item.revealable)
      throw new AppError('INVALID_INPUT', {
        what: `The ${hit.item.name} in the ${hit.item.where} is private key material.`,
        cause: 'Private keys never leave the main side, in any encoding.',
        fix: 'Use the key files of the TPP identity where you need them; the console keeps them encrypted.',
      })
    return hit
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
