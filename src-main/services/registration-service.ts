import type { RegistrationForm, RegistrationOutcomeDto, RegistrationPreviewDto } from '../contract/api.ts'
import type { ClientDto, EnvironmentDto } from '../contract/environments.ts'
import type { SecretStore } from '../certificates/secret-store.ts'
import { AppError, isAppError } from '../core/app-error.ts'
import type { Clock } from '../core/clock.ts'
import { decodeJwtParts } from '../core/jwt-parts.ts'
import { unexpectedAnswer } from '../flows/common/failures.ts'
import type { FlowHttp } from '../flows/flow-context.ts'
import { signRegistrationClaims } from '../signing/registration-jwt.ts'
import { ps256SigningKey, type SigningKey } from '../signing/signing-key.ts'
import { capabilityChecks } from './discovery-service.ts'
import type { EnvironmentsService } from './environments-service.ts'
import type { ClientRecord } from './persistence/settings-schema.ts'
import type { ClientStore } from './persistence/client-store.ts'
import { RegisteredClients, type AdoptedClient, type ClientTokenFor } from './registered-clients.ts'
import { checkRegistrationForm, registrationDefaults } from './registration-form-checks.ts'
import { claimsChangedByBank } from './registration-diff.ts'
import type { TppsService } from './tpps-service.ts'
import { fetchDiscovery } from '../flows/common/discovery.ts'
import type { FlowResponse } from '../flows/flow-context.ts'
import { jsonObject } from '../http/json-body.ts'

/** HTTP for an environment with a TPP's transport identity (mutual TLS, logged exchanges). */
export type HttpFor = (environmentId: string, tppId: string, flowId?: string) => Promise<FlowHttp>

/**
 * Registration of a client by DCR v3.2 (the bank's spec, section 4.1), and its management. The clients it
 * registers are kept by `RegisteredClients`, whose questions it answers too.
 */
/** The client's metadata in a registration answer (RFC 7591 section 3.2.1), or undefined when it names no client_id. */
function registeredMetadata(res: FlowResponse): Readonly<Record<string, unknown>> | undefined {
  const body = jsonObject(res.json)
  return typeof body.client_id === 'string' ? body : undefined
}

export class RegistrationService {
  readonly #clients: RegisteredClients

  constructor(
    clients: ClientStore,
    secrets: SecretStore,
    private readonly environments: EnvironmentsService,
    private readonly tpps: TppsService,
    private readonly httpFor: HttpFor,
    tokenFor: ClientTokenFor,
    private readonly clock: Clock,
  ) {
    this.#clients = new RegisteredClients(clients, secrets, tpps, tokenFor, clock)
  }

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
    return registrationDefaults(this.environments.get(environmentId), this.#ssa(tppId), this.clock.epochSeconds())
  }

  #validate(env: EnvironmentDto, tppId: string, form: RegistrationForm) {
    return checkRegistrationForm(env, this.#ssa(tppId), form, this.clock.epochSeconds())
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
    try {
      const label = 'discovery (registration pre-flight)'
      return (await fetchDiscovery(http, env.authUrl, { label, clientCertificate: false })).discovery
    } catch (err) {
      // A bank that answers, but with no usable discovery document: the checks against it are skipped.
      if (isAppError(err) && (err.code === 'BANK_ANSWER_INVALID' || err.code === 'HTTP_ERROR')) return undefined
      throw err
    }
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
  ): Promise<RegistrationOutcomeDto> {
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
    // The registration endpoint's connection (mutual TLS) opens while discovery is read and the JWT signed.
    http.preconnect(`${env.baseUrl}${env.apiPaths.registration}`)
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
    const registered = res.status === 201 ? registeredMetadata(res) : undefined
    if (!registered)
      throw unexpectedAnswer(
        res,
        'The registration was refused',
        "Fix the claim the bank names; the transport certificate must belong to the software statement's organisation.",
      )
    const client = await this.#clients.save(env, tppId, registered)
    return { client, exchangeId: res.exchangeId, changedByBank: claimsChangedByBank({ ...claims }, registered) }
  }

  /** Records a client registered elsewhere (see `RegisteredClients.adopt`). */
  adopt(input: AdoptedClient): Promise<ClientDto> {
    return this.#clients.adopt(input)
  }

  toDto(r: ClientRecord): ClientDto {
    return this.#clients.toDto(r)
  }

  list(environmentId?: string): ClientDto[] {
    return this.#clients.list(environmentId)
  }

  record(clientId: string): ClientRecord {
    return this.#clients.record(clientId)
  }

  /** The client secret (main side only). */
  secret(clientId: string): Promise<string | undefined> {
    return this.#clients.secret(clientId)
  }

  async read(clientId: string): Promise<{ client: ClientDto; exchangeId: string }> {
    const r = this.record(clientId)
    const env = this.environments.get(r.environmentId)
    const http = await this.httpFor(r.environmentId, r.tppId)
    const res = await http.send({
      method: 'GET',
      url: `${await this.#registrationEndpoint(env)}/${encodeURIComponent(clientId)}`,
      headers: { authorization: `Bearer ${await this.#clients.managementToken(clientId)}`, accept: 'application/json' },
      label: 'registration (read)',
    })
    const registered = res.status === 200 ? registeredMetadata(res) : undefined
    if (!registered)
      throw unexpectedAnswer(
        res,
        'Reading the registration failed',
        'The client may have been deleted at the bank; register again.',
      )
    return { client: await this.#clients.save(env, r.tppId, registered), exchangeId: res.exchangeId }
  }

  async update(clientId: string, form: RegistrationForm): Promise<RegistrationOutcomeDto> {
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
    const token = await this.#clients.managementToken(clientId)
    const http = await this.httpFor(r.environmentId, r.tppId)
    const res = await http.send({
      method: 'PUT',
      url: `${await this.#registrationEndpoint(env)}/${encodeURIComponent(clientId)}`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/jwt', accept: 'application/json' },
      body: jwt,
      label: 'registration (update)',
    })
    const registered = res.status === 200 ? registeredMetadata(res) : undefined
    if (!registered) throw unexpectedAnswer(res, 'Updating the registration failed', 'Fix the claim the bank names.')
    return {
      client: await this.#clients.save(env, r.tppId, registered),
      exchangeId: res.exchangeId,
      changedByBank: claimsChangedByBank({ ...claims }, registered),
    }
  }

  async delete(clientId: string): Promise<{ exchangeId: string }> {
    const r = this.record(clientId)
    const env = this.environments.get(r.environmentId)
    const token = await this.#clients.managementToken(clientId)
    const http = await this.httpFor(r.environmentId, r.tppId)
    const res = await http.send({
      method: 'DELETE',
      url: `${await this.#registrationEndpoint(env)}/${encodeURIComponent(clientId)}`,
      headers: { authorization: `Bearer ${token}` },
      label: 'registration (delete)',
    })
    if (res.status !== 204)
      throw unexpectedAnswer(res, 'Deleting the registration failed', 'The client may already be deleted at the bank.')
    await this.#clients.forget(r)
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
