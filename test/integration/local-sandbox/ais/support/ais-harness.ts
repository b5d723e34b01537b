/**
 * A koa app serving only the AIS routes over real mutual TLS, with an in-test access token verifier:
 * fast tests of the AIS rules that do not need the authorisation server. Consents are created through
 * the API and authorised directly with `ConsentStore.authorise`, as the PSU pages do.
 */
import 'reflect-metadata'
import { X509Certificate, createHash, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Koa from 'koa'
import { Agent, request } from 'undici'
import { aisRoutes } from '../../../../../src-main/local-sandbox/ais/ais-routes.ts'
import { AisBank } from '../../../../../src-main/local-sandbox/ais/ais-bank.ts'
import type { PsuAbsentQuota } from '../../../../../src-main/local-sandbox/ais/access/psu-absent-limiter.ts'
import type { AccessTokenVerifier, TokenInfo } from '../../../../../src-main/local-sandbox/auth/types.ts'
import { SandboxClock } from '../../../../../src-main/local-sandbox/clock.ts'
import { ConsentStore } from '../../../../../src-main/local-sandbox/consents/consent-store.ts'
import { dataDirLayout } from '../../../../../src-main/local-sandbox/data-dir.ts'
import { interactionIdMiddleware } from '../../../../../src-main/local-sandbox/http/interaction-id.ts'
import { ObApiError, obErrorMiddleware } from '../../../../../src-main/local-sandbox/http/ob-error.ts'
import { loadOrCreatePki } from '../../../../../src-main/local-sandbox/pki/ecosystem-pki.ts'
import { loadPsus } from '../../../../../src-main/local-sandbox/psus.ts'
import { EmbeddedStore } from '../../../../../src-main/local-sandbox/store/embedded-store.ts'

export const AIS = '/open-banking/v4.0/aisp'
export const PSU_IP = { 'x-fapi-customer-ip-address': '203.0.113.7' }

export interface Reply {
  status: number
  headers: Record<string, string>
  text: string
  body: any // eslint-disable-line @typescript-eslint/no-explicit-any
  raw: Buffer
}

/** Access tokens the test mints: opaque strings mapped to their facts. */
export class InTestTokens implements AccessTokenVerifier {
  readonly #tokens = new Map<string, TokenInfo>()

  issue(info: Omit<TokenInfo, 'expiresAt'> & { expiresAt?: number }): string {
    const token = `tok-${randomUUID()}`
    this.#tokens.set(token, { expiresAt: Math.floor(Date.now() / 1000) + 3600, ...info })
    return token
  }

  revoke(token: string): void {
    this.#tokens.delete(token)
  }

  async verify(token: string): Promise<TokenInfo | undefined> {
    return this.#tokens.get(token)
  }
}

export class HarnessTpp {
  constructor(
    readonly clientId: string,
    readonly agent: Agent,
    readonly thumbprint: string,
    private readonly h: AisHarness,
  ) {}

  ccToken(scope = 'accounts'): string {
    return this.h.tokens.issue({
      clientId: this.clientId,
      grant: 'client_credentials',
      scopes: [scope],
      certificateThumbprint: this.thumbprint,
    })
  }

  codeToken(consentId: string): string {
    return this.h.tokens.issue({
      clientId: this.clientId,
      grant: 'authorization_code',
      scopes: ['openid', 'accounts'],
      consentId,
      certificateThumbprint: this.thumbprint,
    })
  }

  /** A call on `{base_url}`; `path` is absolute or relative to the AIS base path. */
  async call(
    method: string,
    path: string,
    opts: { token?: string; headers?: Record<string, string>; body?: unknown; psuPresent?: boolean } = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = { ...(opts.psuPresent === false ? {} : PSU_IP), ...opts.headers }
    if (opts.token) headers.authorization = `Bearer ${opts.token}`
    let body: string | undefined
    if (opts.body !== undefined) {
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body)
      headers['content-type'] ??= 'application/json'
    }
    const url = path.startsWith('https://')
      ? path
      : `${this.h.baseUrl}${path.startsWith('/open-banking') ? '' : AIS}${path}`
    const res = await request(url, { method: method as 'GET', headers, body, dispatcher: this.agent })
    const raw = Buffer.from(await res.body.arrayBuffer())
    const text = raw.toString('utf8')
    let parsed: unknown
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {
      parsed = undefined
    }
    const out: Record<string, string> = {}
    for (const [k, v] of Object.entries(res.headers))
      if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v
    return { status: res.statusCode, headers: out, text, body: parsed, raw }
  }

  /** Creates a consent through the API (201 expected) and returns its id. */
  async createConsent(permissions: string[], extra: Record<string, unknown> = {}): Promise<string> {
    const res = await this.call('POST', '/account-access-consents', {
      token: this.ccToken(),
      body: { Data: { Permissions: permissions, ...extra }, Risk: {} },
    })
    if (res.status !== 201) throw new Error(`consent creation answered ${res.status}: ${res.text}`)
    return res.body.Data.ConsentId
  }

  /** Creates a consent, has the PSU authorise it for `accountIds` and returns an authorisation-code token. */
  async authorised(
    permissions: string[],
    psuId: string,
    accountIds: string[],
    extra: Record<string, unknown> = {},
  ): Promise<{ consentId: string; token: string }> {
    const consentId = await this.createConsent(permissions, extra)
    await this.h.consents.authorise(consentId, psuId, accountIds)
    return { consentId, token: this.codeToken(consentId) }
  }
}

export const ALL_PERMISSIONS = [
  'ReadAccountsDetail',
  'ReadBalances',
  'ReadBeneficiariesDetail',
  'ReadDirectDebits',
  'ReadOffers',
  'ReadPAN',
  'ReadParty',
  'ReadPartyPSU',
  'ReadProducts',
  'ReadScheduledPaymentsDetail',
  'ReadStandingOrdersDetail',
  'ReadStatementsDetail',
  'ReadTransactionsCredits',
  'ReadTransactionsDebits',
  'ReadTransactionsDetail',
]

export interface AisHarness {
  baseUrl: string
  dataDir: string
  clock: SandboxClock
  consents: ConsentStore
  tokens: InTestTokens
  bank: AisBank
  tppA: HarnessTpp
  tppB: HarnessTpp
  logs: string[]
  stop(): Promise<void>
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port))
  })
}

/** Starts the AIS routes on a free port over mTLS with two TPPs (A and B) holding transport certificates. */
export async function startAisHarness(
  options: { clockOffsetMs?: number; psuAbsentQuota?: PsuAbsentQuota } = {},
): Promise<AisHarness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ob-ais-test-'))
  const layout = dataDirLayout(dataDir)
  const pki = await loadOrCreatePki(layout)
  const server = createServer({
    key: pki.serverTls.keyPem,
    cert: pki.serverTls.certPem,
    ca: pki.caBundlePem,
    requestCert: true,
    rejectUnauthorized: true,
  })
  const port = await listen(server)
  const baseUrl = `https://127.0.0.1:${port}`
  const store = new EmbeddedStore({ state: layout.state, auth: layout.auth })
  const clock = new SandboxClock(await store.raiseClockOffset(options.clockOffsetMs ?? 0), store)
  const psus = loadPsus()
  const consents = new ConsentStore(store, clock)
  const tokens = new InTestTokens()
  const logs: string[] = []
  const sandbox = {
    addresses: { baseUrl, authUrl: `${baseUrl}/auth`, directoryUrl: `${baseUrl}/dir` },
    clock,
    psus,
    store,
    consents,
    layout,
    log: (l: string) => logs.push(l),
  }
  const bank = await AisBank.forSandbox(sandbox)
  const app = new Koa()
  app.use(interactionIdMiddleware)
  app.use(obErrorMiddleware((l) => logs.push(l)))
  app.use(
    aisRoutes(
      sandbox,
      { tokens, clients: { get: async () => undefined } },
      { bank, psuAbsentQuota: options.psuAbsentQuota },
    ),
  )
  app.use(async () => {
    throw new ObApiError(404, { code: 'U011', message: 'not an AIS path' })
  })
  server.on('request', app.callback())

  const agents: Agent[] = []
  const h = { baseUrl, dataDir, clock, consents, tokens, bank, logs } as AisHarness
  const tpp = async (name: string) => {
    const kit = await pki.issueTransportCertificate({
      orgId: `org${name}`,
      orgName: `TPP ${name}`,
      softwareId: `sw${name}`,
    })
    const agent = new Agent({ connect: { ca: pki.caBundlePem, cert: kit.certPem, key: kit.keyPem }, connections: 4 })
    agents.push(agent)
    const thumbprint = createHash('sha256').update(new X509Certificate(kit.certPem).raw).digest('base64url')
    return new HarnessTpp(`client-${name}`, agent, thumbprint, h)
  }
  h.tppA = await tpp('A')
  h.tppB = await tpp('B')
  h.stop = async () => {
    await Promise.all(agents.map((a) => a.close()))
    await new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
    rmSync(dataDir, { recursive: true, force: true })
  }
  return h
}
