/**
 * A TPP's PIS calls for the tests: HTTP over mTLS with undici, detached JWS signed by hand
 * (detached-sign.ts shares no code with src-main/local-sandbox/pis/jws, so a bug there cannot hide here).
 */
import { randomUUID } from 'node:crypto'
import { request, type Agent } from 'undici'
import { signDetached, type SignOptions } from './detached-sign.ts'
import type { HarnessTppIdentity } from './pis-harness.ts'

export { OB_CRIT, type SignOptions } from './detached-sign.ts'
export const PIS = '/open-banking/v4.0/pisp'

export interface PisResponse {
  status: number
  headers: Record<string, string>
  text: string
  json: any // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface CallOptions {
  token?: string
  body?: string
  headers?: Record<string, string>
  /** The x-jws-signature: a string to send as is, false for none; default: a valid signature of the body. */
  signature?: string | false
  sign?: SignOptions
  /** x-idempotency-key: false for none; default: a fresh UUID on POST. */
  idempotencyKey?: string | false
}

export interface TokenSource {
  ccToken(): string
  acToken(consentId: string): string
}

export class PisClient {
  constructor(
    readonly baseUrl: string,
    readonly id: HarnessTppIdentity,
    readonly agent: Agent,
    readonly tokenSource: TokenSource,
  ) {}

  ccToken(): string {
    return this.tokenSource.ccToken()
  }

  acToken(consentId: string): string {
    return this.tokenSource.acToken(consentId)
  }

  close(): Promise<void> {
    return this.agent.close()
  }

  /** A detached JWS of `body` by this TPP, with the given header changes (detached-sign.ts). */
  async sign(body: string, opts: SignOptions = {}): Promise<string> {
    return signDetached(
      body,
      { kid: this.id.kid, privateKey: this.id.privateKey, iss: `${this.id.orgId}/${this.id.softwareId}` },
      opts,
    )
  }

  async call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, opts: CallOptions = {}): Promise<PisResponse> {
    const headers: Record<string, string> = { ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) }
    if (method === 'POST') {
      headers['content-type'] = 'application/json'
      if (opts.idempotencyKey !== false) headers['x-idempotency-key'] = opts.idempotencyKey ?? randomUUID()
      if (opts.signature !== false)
        headers['x-jws-signature'] = opts.signature ?? (await this.sign(opts.body ?? '', opts.sign))
    }
    Object.assign(headers, opts.headers)
    const res = await request(`${this.baseUrl}${PIS}${path}`, {
      method,
      headers,
      body: opts.body,
      dispatcher: this.agent,
    })
    const text = await res.body.text()
    let json: unknown
    try {
      json = text ? JSON.parse(text) : undefined
    } catch {
      json = undefined
    }
    const out: Record<string, string> = {}
    for (const [k, v] of Object.entries(res.headers))
      if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v
    return { status: res.statusCode, headers: out, text, json }
  }

  /** POST /domestic-payment-consents with a client-credentials token. */
  createConsent(body: object | string, opts: CallOptions = {}): Promise<PisResponse> {
    return this.call('POST', '/domestic-payment-consents', {
      token: this.ccToken(),
      body: typeof body === 'string' ? body : JSON.stringify(body),
      ...opts,
    })
  }

  /** POST /domestic-payments with an authorisation-code token for `consentId`. */
  createPayment(consentId: string, body: object | string, opts: CallOptions = {}): Promise<PisResponse> {
    return this.call('POST', '/domestic-payments', {
      token: this.acToken(consentId),
      body: typeof body === 'string' ? body : JSON.stringify(body),
      ...opts,
    })
  }

  getConsent(consentId: string, opts: CallOptions = {}): Promise<PisResponse> {
    return this.call('GET', `/domestic-payment-consents/${consentId}`, { token: this.ccToken(), ...opts })
  }

  fundsConfirmation(consentId: string, opts: CallOptions = {}): Promise<PisResponse> {
    return this.call('GET', `/domestic-payment-consents/${consentId}/funds-confirmation`, {
      token: this.acToken(consentId),
      ...opts,
    })
  }

  getPayment(paymentId: string, opts: CallOptions = {}): Promise<PisResponse> {
    return this.call('GET', `/domestic-payments/${paymentId}`, { token: this.ccToken(), ...opts })
  }

  paymentDetails(paymentId: string, opts: CallOptions = {}): Promise<PisResponse> {
    return this.call('GET', `/domestic-payments/${paymentId}/payment-details`, { token: this.ccToken(), ...opts })
  }
}
