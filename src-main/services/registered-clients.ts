import type { ClientDto, EnvironmentDto } from '../contract/environments.ts'
import type { SecretStore } from '../certificates/secret-store.ts'
import { AppError } from '../core/app-error.ts'
import type { Clock } from '../core/clock.ts'
import type { ClientRecord } from './persistence/settings-schema.ts'
import type { ClientStore } from './persistence/client-store.ts'
import type { TppsService } from './tpps-service.ts'

/** Gets a client-credentials token for a registered client (used by the registration management calls). */
export type ClientTokenFor = (clientId: string, scope?: string) => Promise<string>

/** A client registered elsewhere, as an environment file (or a Postman import) names it. */
export interface AdoptedClient {
  clientId: string
  environmentId: string
  tppId: string
  authMethod: 'private_key_jwt' | 'client_secret_basic' | 'tls_client_auth'
  secret?: string
}

/** A secret's id in the store: the kind of secret, then the client id in the characters a secret id allows. */
const secretIdFor = (kind: string, clientId: string) =>
  `${kind}-${clientId.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100)}`

/**
 * The clients the console keeps, registered here or elsewhere: each one's environment, identity, auth method
 * and the bank's registration, with its client secret and registration access token encrypted in the secret
 * store (the record says only "(stored encrypted)").
 */
export class RegisteredClients {
  constructor(
    private readonly clients: ClientStore,
    private readonly secrets: SecretStore,
    private readonly tpps: TppsService,
    private readonly tokenFor: ClientTokenFor,
    private readonly clock: Clock,
  ) {}

  /** Keeps the client the bank's registration (or read, or update) answer describes. */
  async save(env: EnvironmentDto, tppId: string, registration: Record<string, unknown>): Promise<ClientDto> {
    const clientId = String(registration.client_id)
    const existing = this.clients.get(clientId)
    const secretId =
      typeof registration.client_secret === 'string'
        ? await this.#putSecret(clientId, registration.client_secret)
        : existing?.secretId
    if (typeof registration.registration_access_token === 'string')
      await this.secrets.put(secretIdFor('registration-access-token', clientId), registration.registration_access_token)
    return this.#put({
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
    })
  }

  /**
   * Records a client registered elsewhere (an environment file names it): its id, environment, identity and
   * auth method; the secret, when given, goes to the encrypted store. A known client keeps its registration.
   */
  async adopt(input: AdoptedClient): Promise<ClientDto> {
    const existing = this.clients.get(input.clientId)
    if (existing && existing.environmentId !== input.environmentId) {
      throw new AppError('INVALID_INPUT', {
        what: `Client ${input.clientId} is already kept for another environment (${existing.environmentId}).`,
        cause: 'A client belongs to the one environment it was registered in.',
        fix: 'Use that environment, or a separate --data-dir for this one.',
      })
    }
    const secretId =
      input.secret !== undefined ? await this.#putSecret(input.clientId, input.secret) : existing?.secretId
    return this.#put({
      clientId: input.clientId,
      environmentId: input.environmentId,
      tppId: input.tppId,
      authMethod: input.authMethod,
      scope: existing?.scope ?? '',
      redirectUris: existing?.redirectUris.length ? existing.redirectUris : this.tpps.record(input.tppId).redirectUris,
      registration: existing?.registration ?? {},
      ...(secretId ? { secretId } : {}),
      registeredAt: existing?.registeredAt ?? this.clock.now().toISOString(),
    })
  }

  async #putSecret(clientId: string, secret: string): Promise<string> {
    const secretId = secretIdFor('client-secret', clientId)
    await this.secrets.put(secretId, secret)
    return secretId
  }

  #put(record: ClientRecord): ClientDto {
    this.clients.put(record)
    return this.toDto(record)
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

  /**
   * The bearer token of the management calls: the `registration_access_token` the bank returned, when it
   * returned one (RFC 7592), else a client-credentials token of the client (Open Banking DCR 3.2).
   */
  async managementToken(clientId: string): Promise<string> {
    const r = this.clients.get(clientId)
    if (r?.registration.registration_access_token) {
      const rat = await this.secrets.get(secretIdFor('registration-access-token', clientId)).catch(() => undefined)
      if (rat) return rat
    }
    return this.tokenFor(clientId)
  }

  /** Forgets a client deleted at the bank: its record and its secrets. */
  async forget(r: ClientRecord): Promise<void> {
    if (r.secretId) await this.secrets.delete(r.secretId)
    if (r.registration.registration_access_token)
      await this.secrets.delete(secretIdFor('registration-access-token', r.clientId))
    this.clients.delete(r.clientId)
  }
}
