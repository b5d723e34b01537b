/**
 * A koa app with the real PIS routes behind real mutual TLS (the sandbox's PKI), where the
 * authorisation server and the directory are small in-test implementations of their interfaces
 * (auth/types.ts, directory/types.ts). Used until, and alongside, journeys through the real servers.
 */
import 'reflect-metadata'
import { X509Certificate, createHash, randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Koa from 'koa'
import { exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose'
import { Agent } from 'undici'
import { AisBank } from '../../../../../src-main/local-sandbox/ais/ais-bank.ts'
import { SandboxClock } from '../../../../../src-main/local-sandbox/clock.ts'
import { ConsentStore } from '../../../../../src-main/local-sandbox/consents/consent-store.ts'
import type { SandboxContext } from '../../../../../src-main/local-sandbox/context.ts'
import { dataDirLayout } from '../../../../../src-main/local-sandbox/data-dir.ts'
import type { Directory, SoftwareStatementRecord } from '../../../../../src-main/local-sandbox/directory/types.ts'
import type { RegisteredClient, TokenInfo } from '../../../../../src-main/local-sandbox/auth/types.ts'
import { interactionIdMiddleware } from '../../../../../src-main/local-sandbox/http/interaction-id.ts'
import { ObApiError, obErrorMiddleware } from '../../../../../src-main/local-sandbox/http/ob-error.ts'
import { loadOrCreateSigningKey } from '../../../../../src-main/local-sandbox/keys.ts'
import { loadOrCreatePki } from '../../../../../src-main/local-sandbox/pki/ecosystem-pki.ts'
import { loadPsus } from '../../../../../src-main/local-sandbox/psus.ts'
import { pisRoutes } from '../../../../../src-main/local-sandbox/pis/pis-routes.ts'
import { PisClient } from './pis-client.ts'
import { EmbeddedStore } from '../../../../../src-main/local-sandbox/store/embedded-store.ts'

/** In-test token verifier: opaque random tokens mapped to their facts, expiring on the sandbox clock. */
export class TestTokens {
  readonly #tokens = new Map<string, TokenInfo>()
  constructor(private readonly clock: SandboxClock) {}

  issue(info: Omit<TokenInfo, 'expiresAt'> & { expiresAt?: number }): string {
    const token = randomBytes(24).toString('base64url')
    this.#tokens.set(token, { expiresAt: this.clock.nowSeconds() + 3600, ...info })
    return token
  }

  async verify(accessToken: string): Promise<TokenInfo | undefined> {
    const info = this.#tokens.get(accessToken)
    return info && info.expiresAt > this.clock.nowSeconds() ? info : undefined
  }
}

/** A TPP onboarded in the harness: software statement with a PS256 key, transport certificate, registered client. */
export interface HarnessTppIdentity {
  orgId: string
  softwareId: string
  clientId: string
  kid: string
  privateKey: CryptoKey
  publicJwk: JWK
  transportCertPem: string
  transportKeyPem: string
  thumbprint: string
}

export interface PisHarness {
  baseUrl: string
  context: SandboxContext
  clock: SandboxClock
  /** The bank the PIS routes check funds on and post accepted payments to. */
  bank: AisBank
  tokens: TestTokens
  caBundlePem: string
  /** Software statements the stub directory serves, by software id (tests may edit them). */
  software: Map<string, SoftwareStatementRecord>
  /** Registered clients the stub registry serves, by client id. */
  clients: Map<string, RegisteredClient>
  logs: string[]
  onboard(): Promise<PisClient>
  stop(): Promise<void>
}

let counter = 0

/** Starts the harness on a free port of 127.0.0.1 with a temporary data directory. */
export async function startPisHarness(options: { dataDir?: string } = {}): Promise<PisHarness> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'ob-pis-test-'))
  const layout = dataDirLayout(dataDir)
  const pki = await loadOrCreatePki(layout)
  const store = new EmbeddedStore({ state: layout.state, auth: layout.auth })
  const clock = new SandboxClock(await store.clockOffset(), store)
  const tokens = new TestTokens(clock)
  const software = new Map<string, SoftwareStatementRecord>()
  const clients = new Map<string, RegisteredClient>()
  const logs: string[] = []
  const directory = { software: (id: string) => software.get(id) } as unknown as Directory

  const server: Server = createServer({
    key: pki.serverTls.keyPem,
    cert: pki.serverTls.certPem,
    ca: pki.caBundlePem,
    requestCert: true,
    rejectUnauthorized: false,
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
  const context: SandboxContext = {
    addresses: { baseUrl, authUrl: 'https://127.0.0.1:1', directoryUrl: 'https://127.0.0.1:2' },
    layout,
    clock,
    psus: loadPsus(),
    store,
    consents: new ConsentStore(store, clock),
    pki,
    directory,
    signingKey: await loadOrCreateSigningKey(store.documents),
    log: (line) => logs.push(line),
  }
  const app = new Koa()
  app.use(interactionIdMiddleware)
  app.use(obErrorMiddleware((line) => logs.push(line)))
  const bank = await AisBank.forSandbox(context)
  app.use(await pisRoutes(context, { tokens, clients: { get: async (id) => clients.get(id) } }, { bank }))
  app.use(async (ctx) => {
    throw new ObApiError(404, { code: 'U011', message: `no endpoint ${ctx.method} ${ctx.path}` })
  })
  server.on('request', app.callback())

  const created: PisClient[] = []
  return {
    baseUrl,
    context,
    clock,
    bank,
    tokens,
    caBundlePem: pki.caBundlePem,
    software,
    clients,
    logs,
    async onboard() {
      counter += 1
      const orgId = `0015800000TESTORG${counter}`
      const softwareId = `SwTest${counter}${randomUUID().replace(/-/g, '').slice(0, 8)}`
      const { privateKey, publicKey } = await generateKeyPair('PS256', { extractable: true })
      const kid = `kid-${randomUUID()}`
      const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, use: 'sig', alg: 'PS256' }
      const transport = await pki.issueTransportCertificate({ orgId, orgName: `Test TPP ${counter}`, softwareId })
      const thumbprint = createHash('sha256').update(new X509Certificate(transport.certPem).raw).digest('base64url')
      software.set(softwareId, {
        orgId,
        orgName: `Test TPP ${counter}`,
        orgStatus: 'Active',
        softwareId,
        clientName: `test client ${counter}`,
        roles: ['PISP'],
        redirectUris: ['https://tpp.example/cb'],
        jwksEndpoint: `https://directory.test/organisation/${orgId}/software/${softwareId}/jwks`,
        jwks: { keys: [publicJwk] },
        transportCertificateThumbprints: [thumbprint],
        createdAt: new Date().toISOString(),
      })
      const clientId = `client-${randomUUID()}`
      clients.set(clientId, {
        clientId,
        orgId,
        softwareId,
        softwareRoles: ['PISP'],
        redirectUris: ['https://tpp.example/cb'],
        tokenEndpointAuthMethod: 'private_key_jwt',
        profile: { security: 'strict', headless: true },
        registeredWithCertificate: thumbprint,
      })
      const identity: HarnessTppIdentity = {
        orgId,
        softwareId,
        clientId,
        kid,
        privateKey,
        publicJwk,
        transportCertPem: transport.certPem,
        transportKeyPem: transport.keyPem,
        thumbprint,
      }
      const agent = new Agent({
        connect: { ca: pki.caBundlePem, cert: transport.certPem, key: transport.keyPem },
        connections: 1,
      })
      const client = new PisClient(baseUrl, identity, agent, {
        ccToken: () =>
          tokens.issue({
            clientId,
            grant: 'client_credentials',
            scopes: ['payments'],
            certificateThumbprint: thumbprint,
          }),
        acToken: (consentId) =>
          tokens.issue({
            clientId,
            grant: 'authorization_code',
            scopes: ['openid', 'payments'],
            consentId,
            certificateThumbprint: thumbprint,
          }),
      })
      created.push(client)
      return client
    },
    async stop() {
      await Promise.all(created.map((c) => c.close()))
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
