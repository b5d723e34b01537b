// One exchange as the exchange log keeps it: the input the HTTP client hands over (whole bodies), the
// record made of it (bodies in the body store, cut at its cap), the JWTs found in it, and what stands in
// for an exchange whose input could not be built. `exchange-log.ts` keeps the records; `exchange-view.ts`
// shows them.
import type { PresentedCertificateDto, TimingsDto, TlsInfoDto } from '../contract/exchange.ts'
import type { AppErrorDto } from '../contract/errors.ts'
import type { BodyStore, StoredBody } from './body-store.ts'
import { findJwts, type FoundJwt } from './jwt-finder.ts'
import { headerValue } from '../core/header-lookup.ts'

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

export interface ExchangeRecord extends Omit<ExchangeInput, 'request' | 'response' | 'startedAt'> {
  id: string
  startedAt: string
  request: { method: string; url: string; headers: Array<[string, string]>; body?: StoredBody }
  response?: { status: number; statusText?: string; headers: Array<[string, string]>; body?: StoredBody }
  /** Found when the exchange is first viewed (most never are), or at once when a body was cut. */
  jwts?: FoundJwt[]
}

export const contentTypeOf = (headers: Array<[string, string]>) => headerValue(headers, 'content-type')

/**
 * The record of an exchange, its bodies handed to `bodies` (kept whole unless over the cap). The JWTs of
 * a cut body are searched at once, in the whole body; the others' when the exchange is first viewed.
 */
export function makeRecord(id: string, input: ExchangeInput, bodies: BodyStore): ExchangeRecord {
  const { request, response } = input
  const requestBody = bodies.store(request.body, contentTypeOf(request.headers))
  const responseBody = bodies.store(
    response?.body,
    response ? contentTypeOf(response.headers) : undefined,
    response?.bodySize,
  )
  // Plain assignments, not conditional spreads: this runs for every exchange (see ExchangeRecorder's exchangeInput).
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
  if (requestBody?.truncated || responseBody?.truncated) record.jwts = recordJwts(record, request.body, response?.body)
  return record
}

/** The JWTs of an exchange, searched in `requestBody` / `responseBody` when given, else in `texts` (the bodies kept). */
export function recordJwts(
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
    responseContentType: r.response?.body?.contentType ?? (r.response ? contentTypeOf(r.response.headers) : undefined),
  })
}

/** What is recorded in place of an exchange whose input could not be built: its place kept, saying why. */
export function unrecordedInput(err: unknown): ExchangeInput {
  return {
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
