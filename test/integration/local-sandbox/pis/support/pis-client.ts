/**
 * A TPP's PIS calls for the tests: HTTP over mTLS with undici, detached JWS signed with jose directly
 * (it shares no code with src-main/local-sandbox/pis/jws, so a bug there cannot hide here).
 */
import { KeyObject, constants, randomUUID, sign as nodeSign } from 'node:crypto'
import type { CryptoKey } from 'jose'
import { request, type Agent } from 'undici'
import type { HarnessTppIdentity } from './pis-harness.ts'

export const PIS = '/open-banking/v4.0/pisp'
const IAT = 'http://openbanking.org.uk/iat'
const ISS = 'http://openbanking.org.uk/iss'
const TAN = 'http://openbanking.org.uk/tan'
export const OB_CRIT = [IAT, ISS, TAN]

export interface PisResponse {
  status: number
  headers: Record<string, string>
  text: string
  json: any // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface SignOptions {
  /** Header claims to set (undefined removes the claim). */
  header?: Record<string, unknown>
  key?: CryptoKey
  /** Sign other bytes than the body sent (a tampered body). */
  signedBody?: string
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

  /** The valid v4.0 header for this TPP. */
  defaultHeader(): Record<string, unknown> {
    return {
      alg: 'PS256',
      kid: this.id.kid,
      typ: 'JOSE',
      cty: 'application/json',
      [IAT]: Math.floor(Date.now() / 1000) - 1,
      [ISS]: `${this.id.orgId}/${this.id.softwareId}`,
      [TAN]: 'openbanking.org.uk',
      crit: OB_CRIT,
    }
  }

  /**
   * A detached JWS of `body`: b64url(header)..b64url(sig), with the given header changes. Signed by
   * hand (RFC 7515: RSASSA-PSS SHA-256 over b64url(header).b64url(body)), so any header, valid or not,
   * can be produced; RS256 when the header says so.
   */
  async sign(body: string, opts: SignOptions = {}): Promise<string> {
    const header = this.defaultHeader()
    for (const [k, v] of Object.entries(opts.header ?? {})) {
      if (v === undefined) delete header[k]
      else header[k] = v
    }
    const protectedB64 = Buffer.from(JSON.stringify(header)).toString('base64url')
    const input = `${protectedB64}.${Buffer.from(opts.signedBody ?? body, 'utf8').toString('base64url')}`
    const key = KeyObject.from(opts.key ?? this.id.privateKey)
    const padding = header.alg === 'RS256' ? { padding: constants.RSA_PKCS1_PADDING } : { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }
    const signature = nodeSign('sha256', Buffer.from(input), { key, ...padding })
    return `${protectedB64}..${signature.toString('base64url')}`
  }

  async call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, opts: CallOptions = {}): Promise<PisResponse> {
    const headers: Record<string, string> = { ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) }
    if (method === 'POST') {
      headers['content-type'] = 'application/json'
      if (opts.idempotencyKey !== false) headers['x-idempotency-key'] = opts.idempotencyKey ?? randomUUID()
      if (opts.signature !== false) headers['x-jws-signature'] = opts.signature ?? (await this.sign(opts.body ?? '', opts.sign))
    }
    Object.assign(headers, opts.headers)
    const res = await request(`${this.baseUrl}${PIS}${path}`, { method, headers, body: opts.body, dispatcher: this.agent })
    const text = await res.body.text()
    let json: unknown
    try {
      json = text ? JSON.parse(text) : undefined
    } catch {
      json = undefined
    }
    const out: Record<string, string> = {}
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v
    return { status: res.statusCode, headers: out, text, json }
  }

  /** POST /domestic-payment-consents with a client-credentials token. */
  createConsent(body: object | string, opts: CallOptions = {}): Promise<PisResponse> {
    return this.call('POST', '/domestic-payment-consents', { token: this.ccToken(), body: typeof body === 'string' ? body : JSON.stringify(body), ...opts })
  }

  /** POST /domestic-payments with an authorisation-code token for `consentId`. */
  createPayment(consentId: string, body: object | string, opts: CallOptions = {}): Promise<PisResponse> {
    return this.call('POST', '/domestic-payments', { token: this.acToken(consentId), body: typeof body === 'string' ? body : JSON.stringify(body), ...opts })
  }

  getConsent(consentId: string, opts: CallOptions = {}): Promise<PisResponse> {
    return this.call('GET', `/domestic-payment-consents/${consentId}`, { token: this.ccToken(), ...opts })
  }

  fundsConfirmation(consentId: string, opts: CallOptions = {}): Promise<PisResponse> {
    return this.call('GET', `/domestic-payment-consents/${consentId}/funds-confirmation`, { token: this.acToken(consentId), ...opts })
  }

  getPayment(paymentId: string, opts: CallOptions = {}): Promise<PisResponse> {
    return this.call('GET', `/domestic-payments/${paymentId}`, { token: this.ccToken(), ...opts })
  }

  paymentDetails(paymentId: string, opts: CallOptions = {}): Promise<PisResponse> {
    return this.call('GET', `/domestic-payments/${paymentId}/payment-details`, { token: this.ccToken(), ...opts })
  }
}
