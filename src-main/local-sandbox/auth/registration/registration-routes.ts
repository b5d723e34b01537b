import { randomUUID, timingSafeEqual } from 'node:crypto'
import type { Context, Next } from 'koa'
import type { SandboxContext } from '../../context.ts'
import type { PeerCertificate } from '../../http/peer-certificate.ts'
import { pathIsUnder } from '../../http/route-table.ts'
import type { ClientStore, SandboxClientMetadata } from '../client-store.ts'
import {
  bearerChallenge,
  bearerToken,
  oauthError,
  readBodyOr413,
  requireTransportCertificate,
  safeDecode,
} from '../http-responses.ts'
import type { TokenVerifier } from '../token-verifier.ts'
import { RegistrationError } from './registration-error.ts'
import { checkTransportOrganisation } from './registration-identity-rules.ts'
import {
  decodeRegistrationJwt,
  registrationJwtFromBody,
  verifyRegistrationSignature,
  verifySoftwareStatement,
} from './registration-jwt.ts'
import { buildClientMetadata, registrationResponse, type ClientIdentity } from './registration-record.ts'
import { validateRegistrationClaims } from './registration-rules.ts'

/** The registration endpoint's path on `{base_url}` (DCR 3.2). */
export const REGISTRATION_PATH = '/dynamic-client-registration/v3.2/register'

export interface RegistrationDeps {
  sandbox: SandboxContext
  clients: ClientStore
  tokens: TokenVerifier
}

/** Wall-clock seconds: registration JWTs are made with the TPP's clock, like every JWT oidc-provider checks. */
const wallSeconds = () => Math.floor(Date.now() / 1000)

/**
 * Dynamic client registration, Open Banking DCR 3.2, on `{base_url}` over mutual TLS:
 * POST /register (the signed registration JWT), and GET / PUT / DELETE /register/{ClientId} authorised
 * by a client-credentials access token of that client. Calls `next()` for any other path.
 */
/** Whether `path` is the registration endpoint's: /register or /register/{ClientId}. */
export function isRegistrationPath(path: string): boolean {
  return pathIsUnder(path, REGISTRATION_PATH)
}

export function registrationRoutes(deps: RegistrationDeps) {
  return async (ctx: Context, next: Next): Promise<void> => {
    if (!isRegistrationPath(ctx.path)) return next()
    const peer = requireTransportCertificate(ctx)
    if (!peer) return
    try {
      if (ctx.path === REGISTRATION_PATH) {
        if (ctx.method !== 'POST') return methodNotAllowed(ctx, 'POST')
        return await create(deps, ctx, peer)
      }
      const clientId = safeDecode(ctx.path.slice(REGISTRATION_PATH.length + 1))
      if (!clientId)
        return oauthError(
          ctx,
          400,
          'invalid_request',
          `the client id in ${ctx.path} is empty or not valid percent-encoding`,
        )
      if (!['GET', 'PUT', 'DELETE'].includes(ctx.method)) return methodNotAllowed(ctx, 'GET, PUT, DELETE')
      const metadata = await authoriseManagement(deps, ctx, peer, clientId)
      if (!metadata) return
      if (ctx.method === 'GET') {
        ctx.status = 200
        ctx.set('Cache-Control', 'no-store')
        ctx.body = registrationResponse(metadata)
      } else if (ctx.method === 'PUT') {
        await update(deps, ctx, peer, metadata)
      } else {
        await deps.clients.delete(clientId)
        deps.sandbox.log(
          `local sandbox: client ${clientId} (software ${metadata.ob_registration.softwareId}) deleted; its tokens are revoked`,
        )
        ctx.status = 204
      }
    } catch (err) {
      if (err instanceof RegistrationError) return oauthError(ctx, 400, err.error, err.message)
      deps.sandbox.log(`local sandbox: registration failed unexpectedly: ${(err as Error).stack ?? String(err)}`)
      oauthError(
        ctx,
        400,
        'invalid_client_metadata',
        `the registration request could not be processed (${(err as Error).message}); check the registration JWT against docs/local-sandbox/authorisation.md`,
      )
    }
  }
}

function methodNotAllowed(ctx: Context, allow: string): void {
  oauthError(ctx, 405, 'invalid_request', `${ctx.method} is not allowed on ${ctx.path}; allowed: ${allow}`, {
    Allow: allow,
  })
}

/** Reads, verifies and validates a registration JWT; returns the metadata to store. */
async function processRegistration(
  deps: RegistrationDeps,
  ctx: Context,
  peer: PeerCertificate,
  identity: ClientIdentity,
  existing?: SandboxClientMetadata,
): Promise<SandboxClientMetadata | undefined> {
  const body = await readBodyOr413(ctx, 'invalid_client_metadata')
  if (!body) return undefined
  const jwt = registrationJwtFromBody(body, ctx.get('content-type') || undefined)
  const { header, claims } = decodeRegistrationJwt(jwt)
  const ssa = await verifySoftwareStatement(deps.sandbox.directory, claims)
  const software = await deps.sandbox.directory.software(ssa.software_id)
  if (!software)
    throw new RegistrationError(
      'unapproved_software_statement',
      `the directory has no software ${ssa.software_id}; onboard it first`,
    )
  await verifyRegistrationSignature(jwt, header, software)
  checkTransportOrganisation(peer.orgId, ssa)
  const now = wallSeconds()
  const registration = validateRegistrationClaims(claims, {
    authUrl: deps.sandbox.addresses.authUrl,
    nowSeconds: now,
    ssa,
    tlsClientAuth: deps.sandbox.extensions?.tlsClientAuth === true,
    certificateSubjectDns: [peer.subjectDn, peer.certificateSubjectDn],
  })
  if (existing && existing.ob_registration.softwareId !== ssa.software_id) {
    throw new RegistrationError(
      'invalid_client_metadata',
      `client ${existing.client_id} belongs to software ${existing.ob_registration.softwareId}; the registration JWT is for software ${ssa.software_id}`,
    )
  }
  const metadata = buildClientMetadata(identity, registration, ssa, software, peer.thumbprint)
  // Checked and recorded in one step of the store: of two requests with one jti, one registers.
  if (!(await deps.sandbox.store.claimRegistrationJti(ssa.software_id, registration.jti, registration.exp, now))) {
    throw new RegistrationError(
      'invalid_client_metadata',
      `jti ${JSON.stringify(registration.jti)} was already used by software ${ssa.software_id}; every registration JWT needs a new unique jti (a fresh UUID)`,
    )
  }
  await deps.clients.save(metadata)
  return metadata
}

async function create(deps: RegistrationDeps, ctx: Context, peer: PeerCertificate): Promise<void> {
  const identity = { clientId: randomUUID(), clientIdIssuedAt: wallSeconds() }
  const metadata = await processRegistration(deps, ctx, peer, identity)
  if (!metadata) return
  deps.sandbox.log(
    `local sandbox: registered client ${metadata.client_id} for software ${metadata.ob_registration.softwareId} (${metadata.ob_registration.profile.security}${metadata.ob_registration.profile.headless ? ', headless' : ''})`,
  )
  ctx.status = 201
  ctx.set('Cache-Control', 'no-store')
  ctx.body = registrationResponse(metadata)
}

async function update(
  deps: RegistrationDeps,
  ctx: Context,
  peer: PeerCertificate,
  existing: SandboxClientMetadata,
): Promise<void> {
  const identity = {
    clientId: existing.client_id,
    clientIdIssuedAt: existing.ob_registration.clientIdIssuedAt,
    clientSecret: existing.client_secret,
  }
  const metadata = await processRegistration(deps, ctx, peer, identity, existing)
  if (!metadata) return
  ctx.status = 200
  ctx.set('Cache-Control', 'no-store')
  ctx.body = registrationResponse(metadata)
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/**
 * The client a management request may act on: a client-credentials token of that same client, bound to
 * this connection's certificate. Anything else is 401 with `WWW-Authenticate: Bearer`; a token presented
 * for an unknown client id is revoked (DCR 3.2).
 */
async function authoriseManagement(
  deps: RegistrationDeps,
  ctx: Context,
  peer: PeerCertificate,
  clientId: string,
): Promise<SandboxClientMetadata | undefined> {
  const refuse = (error: string, description: string) =>
    oauthError(ctx, 401, error, description, bearerChallenge(error, description))
  const token = bearerToken(ctx)
  if (!token) {
    refuse(
      'invalid_token',
      'send "Authorization: Bearer <access token>" with a client-credentials token of this client (grant_type=client_credentials at the token endpoint)',
    )
    return undefined
  }
  const info = await deps.tokens.verify(token)
  if (!info) {
    refuse('invalid_token', 'the access token is unknown, expired or revoked; get a new client-credentials token')
    return undefined
  }
  const metadata = await deps.clients.metadata(clientId)
  if (!metadata) {
    await deps.tokens.revoke(token)
    refuse(
      'invalid_token',
      `no client ${clientId} is registered; the access token used has been revoked, as DCR 3.2 requires`,
    )
    return undefined
  }
  if (!same(info.clientId, clientId)) {
    refuse(
      'invalid_token',
      `the access token belongs to client ${info.clientId}, not ${clientId}; use a client-credentials token of client ${clientId}`,
    )
    return undefined
  }
  if (info.grant !== 'client_credentials') {
    refuse(
      'invalid_token',
      'the access token is an authorisation-code token; registration management needs a client-credentials token',
    )
    return undefined
  }
  if (info.certificateThumbprint && info.certificateThumbprint !== peer.thumbprint) {
    refuse(
      'invalid_token',
      'the access token is bound to another transport certificate (cnf.x5t#S256 does not match this connection)',
    )
    return undefined
  }
  return metadata
}
