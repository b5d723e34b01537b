import type { RegistrationForm, RegistrationPreviewDto } from '../contract/api.ts'
import type { CheckResult } from '../contract/checks.ts'
import type { ClientDto, EnvironmentDto } from '../contract/environments.ts'
import type { SecretStore } from '../certificates/secret-store.ts'
import { AppError } from '../core/app-error.ts'
import type { Clock } from '../core/clock.ts'
import { decodeJwtParts } from '../core/jwt-parts.ts'
import { unexpectedAnswer } from '../flows/common/failures.ts'
import type { FlowHttp } from '../flows/flow-context.ts'
import {
  signRegistrationClaims,
  validateRegistration,
  type RegistrationForm as SigningForm,
} from '../signing/registration-jwt.ts'
import { ps256SigningKey, type SigningKey } from '../signing/signing-key.ts'
import { capabilityChecks } from './discovery-service.ts'
import type { EnvironmentsService } from './environments-service.ts'
import type { ClientRecord } from './persistence/settings-schema.ts'
import type { ClientStore } from './persistence/client-store.ts'
import type { TppsService } from './tpps-service.ts'

/** HTTP for an environment with a TPP's transport identity (mutual TLS, logged exchanges). */
export type HttpFor = (environmentId: string, tppId: string, flowId?: string) => Promise<FlowHttp>

/** Gets a client-credentials token for a registered client (used by the registration management calls). */
export type ClientTokenFor = (clientId: string, scope?: string) => Promise<string>

function toSigningForm(form: RegistrationForm, ssa: string): SigningForm {
  return {
    softwareStatement: ssa,
    ...(form.redirectUris ? { redirectUris: form.redirectUris } : {}),
    ...(form.tokenEndpointAuthMethod ? { tokenEndpointAuthMethod: form.tokenEndpointAuthMethod } : {}),
    ...(form.scope !== undefined ? { scope: form.scope } : {}),
    ...(form.grantTypes ? { grantTypes: form.grantTypes } : {}),
    ...(form.responseTypes ? { responseTypes: form.responseTypes } : {}),
    ...(form.requestObjectSigningAlg ? { requestObjectSigningAlg: form.requestObjectSigningAlg } : {}),
    ...(form.applicationType ? { applicationType: form.applicationType } : {}),
    ...(form.subjectType ? { subjectType: form.subjectType } : {}),
    ...(form.tokenEndpointAuthSigningAlg ? { tokenEndpointAuthSigningAlg: form.tokenEndpointAuthSigningAlg } : {}),
    ...(form.idTokenSignedResponseAlg ? { idTokenSignedResponseAlg: form.idTokenSignedResponseAlg } : {}),
    ...(form.expiresInSeconds !== undefined ? { lifetimeSeconds: form.expiresInSeconds } : {}),
    ...(form.jti ? { jti: form.jti } : {}),
    ...(form.extraClaims ? { extraClaims: form.extraClaims } : {}),
  }
}

/** Registration of a client by DCR v3.2 (the bank's spec, section 4.1), and its management. */
export class RegistrationService {
  constructor(
    private readonly clients: ClientStore,
    private readonly secrets: SecretStore,
    private readonly environments: EnvironmentsService,
    private readonly tpps: TppsService,
    private readonly httpFor: HttpFor,
    private readonly tokenFor: ClientTokenFor,
    private readonly clock: Clock,
  ) {}

  #ssa(tppId: string): string {
    const r = this.tpps.record(tppId)
    if (!r.ssa)
      throw new AppError('INVALID_INPUT', {
        what: `"${r.name}" has no software statement.`,
        cause: 'The registration JWT carries the software statement assertion (SSA).',
        fix: 'Import the SSA from the directory into the TPP identity.',
      })
    return r.ssa
  }

  async #signer(tppId: string): Promise<SigningKey> {
    const m = await this.tpps.material(tppId)
    if (!m.signing)
      throw new AppError('INVALID_INPUT', {
        what: `"${m.record.name}" has no signing key.`,
        cause: "The registration JWT is signed PS256 with the key behind the software statement's JWKS.",
        fix: 'Import the signing key and its kid.',
      })
    return ps256SigningKey(m.signing.key, m.signing.kid)
  }

  /** What the form starts with: the bank's defaults for this TPP and environment. */
  defaults(environmentId: string, tppId: string): RegistrationForm {
    const env = this.environments.get(environmentId)
    const { claims } = validateRegistration(
      { softwareStatement: this.#ssa(tppId) },
      { authUrl: env.authUrl, environmentKind: env.kind, now: this.clock.epochSeconds() },
    )
    return {
      iss: claims.iss,
      aud: claims.aud,
      expiresInSeconds: claims.exp - claims.iat,
      tokenEndpointAuthMethod: 'private_key_jwt',
      tokenEndpointAuthSigningAlg: claims.token_endpoint_auth_signing_alg,
      grantTypes: claims.grant_types,
      subjectType: claims.subject_type,
      applicationType: claims.application_type,
      redirectUris: claims.redirect_uris,
      scope: claims.scope,
      requestObjectSigningAlg: env.kind === 'production' ? 'PS256' : claims.request_object_signing_alg,
      responseTypes: claims.response_types,
      idTokenSignedResponseAlg: claims.id_token_signed_response_alg,
    }
  }

  #validate(env: EnvironmentDto, tppId: string, form: RegistrationForm) {
    const result = validateRegistration(toSigningForm(form, this.#ssa(tppId)), {
      authUrl: env.authUrl,
      environmentKind: env.kind,
      now: this.clock.epochSeconds(),
    })
    const overrides: CheckResult[] = []
    if (form.iss !== undefined && form.iss !== result.claims.iss)
      overrides.push({
        name: 'iss',
        pass: false,
        expected: result.claims.iss,
        actual: form.iss,
        hint: 'iss is the software statement ID: it must equal software_id in the SSA.',
      })
    if (form.aud !== undefined && form.aud !== result.claims.aud)
      overrides.push({
        name: 'aud',
        pass: false,
        expected: result.claims.aud,
        actual: form.aud,
        hint: 'aud is the authorisation server address {auth_url}, with no trailing path.',
      })
    if (!env.allowedAuthMethods.includes(result.claims.token_endpoint_auth_method as never)) {
      overrides.push({
        name: 'token_endpoint_auth_method (environment)',
        pass: false,
        expected: env.allowedAuthMethods.join(' or '),
        actual: result.claims.token_endpoint_auth_method,
        hint: `The environment "${env.name}" allows ${env.allowedAuthMethods.join(' or ')}.`,
      })
    }
    const names = new Set(overrides.map((o) => o.name))
    const checks = [...result.checks.filter((c) => !names.has(c.name)), ...overrides]
    return { ...result, checks, valid: checks.every((c) => c.pass) }
  }

  /** Every claim checked as you type, and the signed JWT when all pass. */
  async preview(environmentId: string, tppId: string, form: RegistrationForm): Promise<RegistrationPreviewDto> {
    const env = this.environments.get(environmentId)
    const { claims, checks, valid } = this.#validate(env, tppId, form)
    const signer = await this.#signer(tppId).catch(() => undefined)
    const header = { alg: 'PS256', kid: signer?.kid ?? '(no signing key)', typ: 'JWT' }
    if (!valid || !signer)
      return {
        header,
        claims,
        checks: signer
          ? checks
          : [
              ...checks,
              {
                name: 'signing key',
                pass: false,
                expected: 'a PS256 signing key',
                actual: 'none',
                hint: 'Import the signing key.',
              },
            ],
        valid: false,
      }
    // The JWT signs exactly the claims shown (its jti and times included).
    return { header, claims, checks, valid: true, jwt: await signRegistrationClaims(claims, signer) }
  }

  /** The discovery document (undefined when the bank serves none: the checks against it are then skipped). */
  async #discovery(env: EnvironmentDto, http: FlowHttp): Promise<Record<string, unknown> | undefined> {
    const res = await http.send({
      method: 'GET',
      url: `${env.authUrl}/.well-known/openid-configuration`,
      label: 'discovery (registration pre-flight)',
      clientCertificate: false,
    })
    return res.status === 200 && res.json && typeof res.json === 'object'
      ? (res.json as Record<string, unknown>)
      : undefined
  }

  /** The registration endpoint discovery advertises; the environment's path on {base_url} when it advertises none. */
  async #registrationEndpoint(env: EnvironmentDto, discovery?: Record<string, unknown>): Promise<string> {
    return typeof discovery?.registration_endpoint === 'string'
      ? discovery.registration_endpoint
      : `${env.baseUrl}${env.apiPaths.registration}`
  }

  /** Signs and sends the registration JWT; saves the client (its secret encrypted). */
  async register(
    environmentId: string,
    tppId: string,
    form: RegistrationForm,
    options: { sendAnyway?: boolean } = {},
  ): Promise<{ client: ClientDto; exchangeId: string }> {
    const env = this.environments.get(environmentId)
    const { claims, checks, valid } = this.#validate(env, tppId, form)
    // "Send anyway": a registration that fails the checks goes out as it is, to see how the bank answers.
    if (!valid && !options.sendAnyway) {
      const failed = checks.filter((c) => !c.pass)
      throw new AppError('CLAIMS_INVALID', {
        what: 'The registration request was not sent.',
        cause: `${failed.map((c) => c.name).join(', ')} ${failed.length === 1 ? 'is' : 'are'} not what the bank requires.`,
        fix: `${failed[0]?.hint ?? 'Correct the claims listed.'} Or send it anyway to see the bank's answer.`,
        problems: failed.map((c) => ({
          code: c.name,
          message: `expected ${c.expected}, got ${c.actual}`,
          path: c.name,
        })),
      })
    }
    const http = await this.httpFor(environmentId, tppId)
    const discovery = await this.#discovery(env, http)
    if (discovery && !options.sendAnyway) {
      // Pre-flight: what the registration asks for against what discovery advertises, every mismatch named.
      const mismatches = capabilityChecks(discovery, env, claims as unknown as Record<string, unknown>).filter(
        (c) => c.name.startsWith('registered ') && !c.pass,
      )
      if (mismatches.length) {
        throw new AppError('CLAIMS_INVALID', {
          what: 'The registration request was not sent: it asks for what the bank does not advertise.',
          cause: mismatches.map((c) => `${c.name} (${c.expected}; discovery has ${c.actual})`).join('; '),
          fix: `${mismatches[0]!.hint ?? 'Change the claims.'} Or send it anyway to see the bank's answer.`,
          problems: mismatches.map((c) => ({
            code: c.name,
            message: `expected ${c.expected}, got ${c.actual}`,
            path: c.name,
          })),
        })
      }
    }
    const jwt = await signRegistrationClaims(claims, await this.#signer(tppId))
    const res = await http.send({
      method: 'POST',
      url: await this.#registrationEndpoint(env, discovery),
      headers: { 'content-type': 'application/jwt', accept: 'application/json' },
      body: jwt,
      label: 'registration (DCR)',
    })
    if (res.status !== 201 || typeof res.json?.client_id !== 'string')
      throw unexpectedAnswer(
        res,
        'The registration was refused',
        "Fix the claim the bank names; the transport certificate must belong to the software statement's organisation.",
      )
    const client = await this.#save(env, tppId, res.json)
    return { client, exchangeId: res.exchangeId }
  }

  async #save(env: EnvironmentDto, tppId: string, registration: Record<string, unknown>): Promise<ClientDto> {
    const clientId = String(registration.client_id)
    const existing = this.clients.get(clientId)
    let secretId = existing?.secretId
    if (typeof registration.client_secret === 'string') {
      secretId = `client-secret-${clientId.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100)}`
      await this.secrets.put(secretId, registration.client_secret)
    }
    if (typeof registration.registration_access_token === 'string')
      await this.secrets.put(this.#ratId(clientId), registration.registration_access_token)
    const record: ClientRecord = {
      clientId,
      environmentId: env.id,
      tppId,
      authMethod:
        registration.token_endpoint_auth_method === 'client_secret_basic' ||
        registration.token_endpoint_auth_method === 'tls_client_auth'
          ? registration.token_endpoint_auth_method
          : 'private_key_jwt',
      scope: String(registration.scope ?? ''),
      redirectUris: Array.isArray(registration.redirect_uris) ? (registration.redirect_uris as string[]) : [],
      registration: {
        ...registration,
        ...(registration.client_secret ? { client_secret: '(stored encrypted)' } : {}),
        ...(registration.registration_access_token ? { registration_access_token: '(stored encrypted)' } : {}),
      },
      ...(secretId ? { secretId } : {}),
      registeredAt: existing?.registeredAt ?? this.clock.now().toISOString(),
    }
    this.clients.put(record)
    return this.toDto(record)
  }

  /**
   * Records a client registered elsewhere (an environment file names it): its id, environment, identity and
   * auth method; the secret, when given, goes to the encrypted store. A known client keeps its registration.
   */
  async adopt(input: {
    clientId: string
    environmentId: string
    tppId: string
    authMethod: 'private_key_jwt' | 'client_secret_basic' | 'tls_client_auth'
    secret?: string
  }): Promise<ClientDto> {
    const existing = this.clients.get(input.clientId)
    if (existing && existing.environmentId !== input.environmentId) {
      throw new AppError('INVALID_INPUT', {
        what: `Client ${input.clientId} is already kept for another environment (${existing.environmentId}).`,
        cause: 'A client belongs to the one environment it was registered in.',
        fix: 'Use that environment, or a separate --data-dir for this one.',
      })
    }
    let secretId = existing?.secretId
    if (input.secret !== undefined) {
      secretId = `client-secret-${input.clientId.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100)}`
      await this.secrets.put(secretId, input.secret)
    }
    const record: ClientRecord = {
      clientId: input.clientId,
      environmentId: input.environmentId,
      tppId: input.tppId,
      authMethod: input.authMethod,
      scope: existing?.scope ?? '',
      redirectUris: existing?.redirectUris.length ? existing.redirectUris : this.tpps.record(input.tppId).redirectUris,
      registration: existing?.registration ?? {},
      ...(secretId ? { secretId } : {}),
      registeredAt: existing?.registeredAt ?? this.clock.now().toISOString(),
    }
    this.clients.put(record)
    return this.toDto(record)
  }

  #ratId(clientId: string): string {
    return `registration-access-token-${clientId.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100)}`
  }

  /**
   * The bearer token of the management calls: the `registration_access_token` the bank returned, when it
   * returned one (RFC 7592), else a client-credentials token of the client (Open Banking DCR 3.2).
   */
  async #managementToken(clientId: string): Promise<string> {
    const r = this.clients.get(clientId)
    if (r?.registration.registration_access_token) {
      const rat = await this.secrets.get(this.#ratId(clientId)).catch(() => undefined)
      if (rat) return rat
    }
    return this.tokenFor(clientId)
  }

  toDto(r: ClientRecord): ClientDto {
    const { secretId, ...rest } = r
    return { ...rest, hasSecret: !!secretId }
  }

  list(environmentId?: string): ClientDto[] {
    return this.clients
      .list()
      .filter((c) => !environmentId || c.environmentId === environmentId)
      .map((c) => this.toDto(c))
  }

  record(clientId: string): ClientRecord {
    const r = this.clients.get(clientId)
    if (!r)
      throw new AppError('NOT_FOUND', {
        what: `No registered client "${clientId}".`,
        cause: 'It was deleted, or registered from another console.',
        fix: 'Register a client first (registration.register).',
      })
    return r
  }

  /** The client secret (main side only). */
  async secret(clientId: string): Promise<string | undefined> {
    const r = this.record(clientId)
    return r.secretId ? this.secrets.get(r.secretId) : undefined
  }

  async read(clientId: string): Promise<{ client: ClientDto; exchangeId: string }> {
    const r = this.record(clientId)
    const env = this.environments.get(r.environmentId)
    const http = await this.httpFor(r.environmentId, r.tppId)
    const res = await http.send({
      method: 'GET',
      url: `${await this.#registrationEndpoint(env)}/${encodeURIComponent(clientId)}`,
      headers: { authorization: `Bearer ${await this.#managementToken(clientId)}`, accept: 'application/json' },
      label: 'registration (read)',
    })
    if (res.status !== 200)
      throw unexpectedAnswer(
        res,
        'Reading the registration failed',
        'The client may have been deleted at the bank; register again.',
      )
    return { client: await this.#save(env, r.tppId, res.json), exchangeId: res.exchangeId }
  }

  async update(clientId: string, form: RegistrationForm): Promise<{ client: ClientDto; exchangeId: string }> {
    const r = this.record(clientId)
    const env = this.environments.get(r.environmentId)
    const { claims, checks, valid } = this.#validate(env, r.tppId, form)
    if (!valid)
      throw new AppError('CLAIMS_INVALID', {
        what: 'The registration update was not sent.',
        cause: checks
          .filter((c) => !c.pass)
          .map((c) => c.name)
          .join(', '),
        fix: 'Correct the claims listed.',
      })
    const jwt = await signRegistrationClaims(claims, await this.#signer(r.tppId))
    const token = await this.#managementToken(clientId)
    const http = await this.httpFor(r.environmentId, r.tppId)
    const res = await http.send({
      method: 'PUT',
      url: `${await this.#registrationEndpoint(env)}/${encodeURIComponent(clientId)}`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/jwt', accept: 'application/json' },
      body: jwt,
      label: 'registration (update)',
    })
    if (res.status !== 200)
      throw unexpectedAnswer(res, 'Updating the registration failed', 'Fix the claim the bank names.')
    return { client: await this.#save(env, r.tppId, res.json), exchangeId: res.exchangeId }
  }

  async delete(clientId: string): Promise<{ exchangeId: string }> {
    const r = this.record(clientId)
    const env = this.environments.get(r.environmentId)
    const token = await this.#managementToken(clientId)
    const http = await this.httpFor(r.environmentId, r.tppId)
    const res = await http.send({
      method: 'DELETE',
      url: `${await this.#registrationEndpoint(env)}/${encodeURIComponent(clientId)}`,
      headers: { authorization: `Bearer ${token}` },
      label: 'registration (delete)',
    })
    if (res.status !== 204)
      throw unexpectedAnswer(res, 'Deleting the registration failed', 'The client may already be deleted at the bank.')
    if (r.secretId) await this.secrets.delete(r.secretId)
    if (r.registration.registration_access_token) await this.secrets.delete(this.#ratId(clientId))
    this.clients.delete(clientId)
    return { exchangeId: res.exchangeId }
  }
}

/** The software id and org id in an SSA (for the x-jws-signature `iss`). */
export function ssaIds(ssa: string): { orgId?: string; softwareId?: string } {
  const claims = decodeJwtParts(ssa).claims ?? {}
  return {
    ...(typeof claims.org_id === 'string' ? { orgId: claims.org_id } : {}),
    ...(typeof claims.software_id === 'string' ? { softwareId: claims.software_id } : {}),
  }
}
