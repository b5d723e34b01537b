// The request the HTTP client takes and the response it gives back, and the conversions between them and
// undici's shapes.

import { headerValue } from '../core/header-lookup.ts'

export interface HttpRequest {
  method: string
  url: string
  headers?: Record<string, string> | Array<[string, string]>
  /** Sent byte for byte (sign exactly these bytes for x-jws-signature). */
  body?: string | Uint8Array
  /** Shown in the exchange log (`registration`, `token (client_credentials)`...). */
  label?: string
  /**
   * `false`: send without the client certificate, through a separate connection; allowed to any
   * origin (e.g. a JWKS). Default: with the certificate, to the environment's origins only.
   */
  clientCertificate?: boolean
  /** Whole-request time limit, on top of the per-phase timeouts. */
  timeoutMs?: number
  /** The largest response body read (bytes), over the client's default. */
  maxBodyBytes?: number
  /**
   * Whether to retry on a reset, 5xx or 429 (see retry-policy.ts). Default: yes for GET and HEAD, no
   * otherwise. `true` on a POST is honoured only when it carries `x-idempotency-key`: every try then
   * sends the same key and body, so the bank answers the resource the first try made.
   */
  retry?: boolean
  /** Told the id of every exchange this request makes in the log (one per try), failed ones too. */
  onExchange?: (exchangeId: string) => void
}

export interface HttpResponse {
  status: number
  statusText?: string
  headers: Array<[string, string]>
  body: Buffer
  exchangeId?: string
  header(name: string): string | undefined
  text(): string
  json<T = unknown>(): T
  /** How many tries it took (1 when the first answered). */
  tries?: number
}

export function headerPairs(headers: HttpRequest['headers']): Array<[string, string]> {
  if (!headers) return []
  return Array.isArray(headers) ? headers.map(([k, v]) => [k, v]) : Object.entries(headers)
}

/** The request body as the bytes sent (a copy of a caller's Uint8Array, which the log keeps). */
export function bodyBytes(req: HttpRequest): Buffer | undefined {
  return typeof req.body === 'string' ? Buffer.from(req.body, 'utf8') : req.body ? Buffer.from(req.body) : undefined
}

export function responseHeaderPairs(headers: Record<string, string | string[] | undefined>): Array<[string, string]> {
  const out: Array<[string, string]> = []
  for (const k in headers) {
    const v = headers[k]
    if (v === undefined) continue
    if (typeof v === 'string') out.push([k, v])
    else for (const value of v) out.push([k, value])
  }
  return out
}

/** A response: methods on a class, not closures made for every response. */
export class ClientResponse implements HttpResponse {
  exchangeId?: string
  statusText?: string
  tries?: number
  constructor(
    readonly status: number,
    readonly headers: Array<[string, string]>,
    readonly body: Buffer,
  ) {}
  header(name: string): string | undefined {
    return headerValue(this.headers, name)
  }
  text(): string {
    return this.body.toString('utf8')
  }
  json<T = unknown>(): T {
    return JSON.parse(this.text()) as T
  }
}

export function makeResponse(
  status: number,
  headers: Array<[string, string]>,
  body: Buffer,
  exchangeId?: string,
  statusText?: string,
): HttpResponse {
  const res = new ClientResponse(status, headers, body)
  if (exchangeId) res.exchangeId = exchangeId
  if (statusText) res.statusText = statusText
  return res
}
