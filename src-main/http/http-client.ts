import { AppError, isAppError } from '../core/app-error.ts'
import { systemClock, type Clock } from '../core/clock.ts'
import { silentLogger, type Logger } from '../core/logger.ts'
import {
  BodyTooLarge,
  checkMaxBody,
  DEFAULT_MAX_BODY_BYTES,
  dispatchRequest,
  tooLargeError,
  type RawResponse,
} from './bounded-dispatch.ts'
import { ContentEncodingError, contentEncodingError, decodeBody } from './content-encoding.ts'
import { DEFAULT_TIMEOUTS, openChannel, type Channel, type HttpTimeouts } from './client-channel.ts'
import type { ConnectionInfo, ConnectionTracker } from './connection-tracker.ts'
import { certificateSummary, originOf, type HttpEnvironment, type HttpIdentity } from './environment.ts'
import { classifyRequestError } from './error-classifier.ts'
import type { ExchangeLog } from './exchange-log.ts'
import { ExchangeRecorder, withExchangeId, type RecordedResponse } from './exchange-recorder.ts'
import { exchangeTimings } from './exchange-timings.ts'
import {
  bodyBytes,
  headerPairs,
  makeResponse,
  responseHeaderPairs,
  type HttpRequest,
  type HttpResponse,
} from './http-message.ts'
import { Mutex } from './mutex.ts'
import { isRetryable, sendWithRetries } from './request-retries.ts'
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.ts'

export type { HttpRequest, HttpResponse } from './http-message.ts'

/** One request on its way: what it is and where, and the marks its exchange's timings are read from. */
interface Attempt {
  req: HttpRequest
  origin: string
  withCert: boolean
  maxBody: number
  tracker: ConnectionTracker
  body: Buffer | undefined
  startedAt: Date
  t0: number
  marks: { headersAt?: number }
}

/** The connection an exchange went over, and whether it was opened for it. */
interface Link {
  conn: ConnectionInfo | undefined
  fresh: boolean
}

export interface HttpClientOptions {
  environment: HttpEnvironment
  /** The transport identity for mutual TLS; without it, requests go without a client certificate. */
  identity?: HttpIdentity
  log?: ExchangeLog
  logger?: Logger
  clock?: Clock
  timeouts?: Partial<HttpTimeouts>
  /** The largest response body read (bytes); a larger one fails with RESPONSE_TOO_LARGE. Default 50 MiB. */
  maxBodyBytes?: number
  /** How requests that are safe to repeat are retried (see retry-policy.ts); `{ tries: 1 }` turns retries off. */
  retry?: Partial<RetryPolicy>
}

/**
 * The HTTPS client of one (environment, identity): mutual TLS with the transport certificate, the
 * environment's server trust (exact CA bundle, system CAs, or verification off for the bank's sandbox),
 * keep-alive with one connection per origin, requests serialised so each exchange's timings and TLS
 * facts are its own. Every exchange goes to the exchange log. Network and TLS failures throw AppErrors
 * of the closed set; HTTP error statuses are returned (see `explainErrorResponse`).
 *
 * The client certificate is offered only to the environment's origins: a request elsewhere is refused
 * (ORIGIN_NOT_ALLOWED) unless it asks for `clientCertificate: false`.
 *
 * @example const client = new HttpClient({ environment, identity, log })
 *          const res = await client.request({ method: 'GET', url: `${baseUrl}/open-banking/v4.0/aisp/accounts`, headers: { authorization: `Bearer ${token}` } })
 */
export class HttpClient {
  readonly environment: HttpEnvironment
  readonly identity?: HttpIdentity
  readonly timeouts: HttpTimeouts
  readonly maxBodyBytes: number
  readonly retryPolicy: RetryPolicy
  private readonly origins: Set<string>
  /** Origins that have answered a request made with the client certificate (so they accept it). */
  private readonly acceptedCertificate = new Set<string>()
  private readonly clock: Clock
  private readonly logger: Logger
  private readonly recorder: ExchangeRecorder
  private readonly mutex = new Mutex()
  private mtls?: Channel
  private plain?: Channel
  private closed = false

  constructor(options: HttpClientOptions) {
    if (options.environment.kind === 'production' && options.environment.trust.mode === 'off') {
      throw new AppError('INVALID_INPUT', {
        what: `Connecting to the environment "${options.environment.id}" failed`,
        cause:
          'it is a production environment with TLS verification off: anyone on the network path could impersonate the bank',
        fix: "use system trust (plus the bank's CA certificate if it needs one); verification is off only for the bank's sandbox",
      })
    }
    this.environment = options.environment
    if (options.identity) this.identity = options.identity
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts }
    this.maxBodyBytes = checkMaxBody(options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, 'the HTTP client')
    this.retryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry }
    this.origins = new Set(options.environment.origins.map(originOf))
    this.clock = options.clock ?? systemClock()
    this.logger = (options.logger ?? silentLogger).child({ layer: 'http', environmentId: options.environment.id })
    const presented = options.identity ? certificateSummary(options.identity.certPem) : undefined
    this.recorder = new ExchangeRecorder(
      options.log,
      options.environment,
      options.identity,
      presented,
      this.tlsVerification,
    )
  }

  /** `off` for an environment whose server certificates are not verified (the bank's sandbox). */
  get tlsVerification(): 'on' | 'off' {
    return this.environment.trust.mode === 'off' ? 'off' : 'on'
  }

  private channel(withCert: boolean): Channel {
    const existing = withCert ? this.mtls : this.plain
    if (existing) return existing
    const channel = openChannel(this.environment.trust, withCert ? this.identity : undefined, this.timeouts)
    if (withCert) this.mtls = channel
    else this.plain = channel
    return channel
  }

  /**
   * Opens the connection a request to `url` will take, while the caller prepares that request; the request
   * then waits for what is left of the handshake, or none of it (`ConnectionTracker.preconnect`). Nothing is
   * opened for an origin that has a connection, nor the certificate offered to another host than the
   * environment's: such a request is refused when sent, as it would be without this.
   */
  preconnect(url: string, options: { clientCertificate?: false } = {}): void {
    if (this.closed) return
    let target: URL, origin: string
    try {
      target = new URL(url)
      origin = originOf(url)
    } catch {
      return
    }
    const withCert = options.clientCertificate !== false && Boolean(this.identity)
    if (target.protocol !== 'https:' || (options.clientCertificate !== false && !this.origins.has(origin))) return
    this.channel(withCert).tracker.preconnect(target)
  }

  /** Sends one request; see the class comment. GETs (and POSTs with an idempotency key that ask for it) are retried by the retry policy. */
  async request(req: HttpRequest): Promise<HttpResponse> {
    if (this.closed)
      throw new AppError('INTERNAL', {
        what: `${req.method} ${req.url} failed`,
        cause: 'the HTTP client was closed (its environment or identity changed)',
        fix: 'get a new client from the agent pool',
      })
    const origin = originOf(req.url)
    const withCert = req.clientCertificate !== false && Boolean(this.identity)
    if (req.clientCertificate !== false && !this.origins.has(origin)) {
      const error = new AppError('ORIGIN_NOT_ALLOWED', {
        what: `${req.method} ${req.url} was not sent`,
        cause: `${origin} is not one of the origins of the environment "${this.environment.id}" (${[...this.origins].join(', ')}), and the client certificate is never offered to other hosts`,
        fix: 'add the origin to the environment if it belongs to the bank, or send the request with clientCertificate: false',
        details: { url: req.url, origin },
      })
      this.recorder.record({
        req,
        body: bodyBytes(req),
        startedAt: this.clock.now(),
        timings: { connect: 0, tls: 0, firstByte: 0, total: 0 },
        reused: false,
        conn: undefined,
        withCert: undefined,
        response: undefined,
        error,
      })
      throw error
    }
    const maxBody =
      req.maxBodyBytes !== undefined ? checkMaxBody(req.maxBodyBytes, `${req.method} ${req.url}`) : this.maxBodyBytes
    const send = (r: HttpRequest) => this.mutex.run(() => this.send(r, origin, withCert, maxBody))
    if (!isRetryable(req) || this.retryPolicy.tries <= 1) return send(req)
    return sendWithRetries(req, this.retryPolicy, this.clock, this.logger, send)
  }

  private async send(req: HttpRequest, origin: string, withCert: boolean, maxBody: number): Promise<HttpResponse> {
    const { agent, tracker } = this.channel(withCert)
    tracker.take()
    const attempt: Attempt = {
      req,
      origin,
      withCert,
      maxBody,
      tracker,
      body: bodyBytes(req),
      startedAt: this.clock.now(),
      t0: performance.now(),
      marks: {},
    }
    let res: RawResponse
    try {
      const headers = headerPairs(req.headers).flat()
      res = await dispatchRequest(
        agent,
        new URL(req.url),
        req.method,
        headers,
        attempt.body,
        req.timeoutMs,
        maxBody,
        attempt.marks,
      )
    } catch (err) {
      throw this.failed(attempt, err)
    }
    return this.answered(attempt, res)
  }

  /** Logs an exchange as it ended; returns its id (undefined without a log). */
  private record(
    attempt: Attempt,
    end: number,
    { conn, fresh }: Link,
    response?: RecordedResponse,
    error?: AppError,
  ): string | undefined {
    return this.recorder.record({
      req: attempt.req,
      body: attempt.body,
      startedAt: attempt.startedAt,
      timings: exchangeTimings(attempt.t0, attempt.marks.headersAt, end, conn, fresh),
      reused: !fresh,
      conn,
      withCert: attempt.withCert,
      response,
      error,
    })
  }

  /** A request that got no whole answer: a body over the cap, or a failure told by its cause; logged, then returned to throw. */
  private failed(attempt: Attempt, err: unknown): AppError {
    const end = performance.now()
    const link = this.connection(attempt.tracker, attempt.origin)
    const { req } = attempt
    if (err instanceof BodyTooLarge) {
      const error = tooLargeError(req, err)
      const response: RecordedResponse = {
        status: err.raw.status,
        headers: responseHeaderPairs(err.raw.headers),
        body: err.raw.body,
        bodySize: err.declared ?? err.received,
      }
      if (err.raw.statusText) response.statusText = err.raw.statusText
      const exchangeId = this.record(attempt, end, link, response, error)
      this.logger.info('exchange refused: body over the cap', {
        method: req.method,
        url: req.url,
        cap: err.cap,
        declared: err.declared,
        received: err.received,
      })
      return withExchangeId(error, exchangeId)
    }
    const classified = isAppError(err) ? err : this.classify(attempt, link, err)
    const exchangeId = this.record(attempt, end, link, undefined, classified)
    this.logger.info('exchange failed', { method: req.method, url: req.url, code: classified.code })
    return withExchangeId(classified, exchangeId)
  }

  /** A network or TLS failure as one of the closed set of codes, with the facts of its connection. */
  private classify(attempt: Attempt, { conn, fresh }: Link, err: unknown): AppError {
    const { req, withCert, origin } = attempt
    return classifyRequestError(err, {
      method: req.method,
      url: req.url,
      environmentKind: this.environment.kind,
      clientCertificate: withCert,
      tlsVerification: this.tlsVerification,
      ...(conn ? { connection: conn } : {}),
      freshConnection: fresh,
      certificateAcceptedBefore: withCert && this.acceptedCertificate.has(origin),
      timeouts: { ...this.timeouts, ...(req.timeoutMs ? { totalMs: req.timeoutMs } : {}) },
      responseStarted: attempt.marks.headersAt !== undefined,
    })
  }

  /** A whole answer: decoded (a body that cannot be decoded is logged as received and thrown), logged, returned. */
  private answered(attempt: Attempt, res: RawResponse): HttpResponse {
    const end = performance.now()
    const link = this.connection(attempt.tracker, attempt.origin)
    const { req, maxBody } = attempt
    if (attempt.withCert) this.acceptedCertificate.add(attempt.origin)
    const resHeaders = responseHeaderPairs(res.headers)
    const response: RecordedResponse = { status: res.status, headers: resHeaders, body: res.body }
    if (res.statusText) response.statusText = res.statusText
    let decodingError: AppError | undefined
    try {
      response.body = decodeBody(resHeaders, res.body, maxBody)
    } catch (err) {
      if (!(err instanceof ContentEncodingError)) throw err
      decodingError = contentEncodingError(req, res, err)
    }
    const exchangeId = this.record(attempt, end, link, response, decodingError)
    if (decodingError) throw withExchangeId(decodingError, exchangeId)
    this.logger.debug('exchange', {
      method: req.method,
      url: req.url,
      status: res.status,
      ms: Math.round(end - attempt.t0),
    })
    return makeResponse(res.status, resHeaders, response.body, exchangeId, res.statusText)
  }

  private connection(tracker: ConnectionTracker, origin: string): Link {
    const opened = tracker.take()
    return { conn: opened.at(-1) ?? tracker.last(origin), fresh: opened.length > 0 }
  }

  /** Closes the connections (waits for requests in flight); closing again does nothing. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.mtls?.tracker.close()
    this.plain?.tracker.close()
    await Promise.all([this.mtls?.agent.close(), this.plain?.agent.close()])
  }
}
