/**
 * A TPP client for the conformance report's tests: the sandbox's own independent test client (undici and
 * jose, no console code) with helpers that make AIS and PIS calls right, or wrong on purpose.
 */
import { randomUUID } from 'node:crypto'
import { FlattenedSign } from 'jose'
import { Agent, request } from 'undici'
import type { HttpResponse, RegisteredTestClient, TestTpp } from '../../support/test-tpp.ts'

export const AIS = '/open-banking/v4.0/aisp'
export const PIS = '/open-banking/v4.0/pisp'
export const PSU = { 'x-fapi-customer-ip-address': '198.51.100.23' }
const OB_IAT = 'http://openbanking.org.uk/iat'
const OB_ISS = 'http://openbanking.org.uk/iss'
const OB_TAN = 'http://openbanking.org.uk/tan'

export interface CallOptions {
  token?: string
  /** Headers added (a value of undefined removes a default one: `x-fapi-interaction-id`). */
  headers?: Record<string, string | undefined>
  body?: string
}

/** `null` leaves the header out; `header` changes the JWS header's claims. */
export interface PisPostOptions {
  key?: string | null
  signature?: string | null
  header?: Record<string, unknown>
}

export class SloppyClient {
  constructor(
    readonly tpp: TestTpp,
    readonly client: RegisteredTestClient,
    readonly baseUrl: string,
  ) {}

  /** A call with a fresh interaction id (unless removed), the bearer token and the headers given. */
  async call(method: string, path: string, opts: CallOptions = {}): Promise<HttpResponse> {
    const headers: Record<string, string> = { 'x-fapi-interaction-id': randomUUID() }
    if (opts.token) headers.authorization = `Bearer ${opts.token}`
    if (opts.body !== undefined) headers['content-type'] = 'application/json'
    for (const [k, v] of Object.entries(opts.headers ?? {})) {
      if (v === undefined) delete headers[k]
      else headers[k] = v
    }
    const url = path.startsWith('https://') ? path : `${this.baseUrl}${path}`
    return this.tpp.call(method, url, { headers, body: opts.body })
  }

  /** A detached JWS of `body` (jose, PS256, the three OB claims); `header` changes claims (undefined removes). */
  async sign(body: string, header: Record<string, unknown> = {}): Promise<string> {
    const protectedHeader: Record<string, unknown> = {
      alg: 'PS256',
      kid: this.tpp.kit.signingKid,
      typ: 'JOSE',
      cty: 'application/json',
      [OB_IAT]: Math.floor(Date.now() / 1000) - 1,
      [OB_ISS]: `${this.tpp.kit.orgId}/${this.tpp.kit.softwareId}`,
      [OB_TAN]: 'openbanking.org.uk',
      crit: [OB_IAT, OB_ISS, OB_TAN],
      ...header,
    }
    for (const [k, v] of Object.entries(header)) if (v === undefined) delete protectedHeader[k]
    const jws = await new FlattenedSign(new TextEncoder().encode(body))
      .setProtectedHeader(protectedHeader as never)
      .sign(await this.tpp.signingKey(), { crit: { [OB_IAT]: true, [OB_ISS]: true, [OB_TAN]: true } })
    return `${jws.protected}..${jws.signature}`
  }

  /** A PIS POST: signed, with an idempotency key, unless the options say otherwise. */
  async pisPost(path: string, token: string, body: string, opts: PisPostOptions = {}): Promise<HttpResponse> {
    const headers: Record<string, string | undefined> = {}
    if (opts.key !== null) headers['x-idempotency-key'] = opts.key ?? randomUUID()
    if (opts.signature !== null) headers['x-jws-signature'] = opts.signature ?? (await this.sign(body, opts.header))
    return this.call('POST', `${PIS}${path}`, { token, body, headers })
  }
}

/** The directory's admin endpoint, as a CI job would read it. */
export class DirectoryAdmin {
  readonly #agent: Agent
  constructor(
    readonly directoryUrl: string,
    caBundlePem: string,
  ) {
    this.#agent = new Agent({ connect: { ca: caBundlePem }, connections: 1 })
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async send(method: 'GET' | 'DELETE' | 'POST', path: string): Promise<{ status: number; json: any }> {
    const res = await request(`${this.directoryUrl}${path}`, { method, dispatcher: this.#agent })
    const text = await res.body.text()
    return { status: res.statusCode, json: text ? JSON.parse(text) : undefined }
  }

  close(): Promise<void> {
    return this.#agent.close()
  }
}
