import type { AdapterPayload, ClientMetadata } from 'oidc-provider'
import type Provider from 'oidc-provider'
import type { Directory, SoftwareRole } from '../directory/types.ts'
import type { SandboxOidcStorage } from './provider/oidc-adapter.ts'
import { RegistrationError } from './registration/registration-error.ts'
import type { ClientProfile, ClientRegistry, RegisteredClient } from './types.ts'

/**
 * What the sandbox records of a registration besides oidc-provider's client metadata, in the client's
 * `ob_registration` property: the Open Banking values as registered (some differ from what oidc-provider
 * is told, e.g. `request_object_signing_alg: none`), the profile, and the software statement's facts.
 */
export interface ObRegistration {
  orgId: string
  orgName?: string
  softwareId: string
  softwareRoles: SoftwareRole[]
  profile: ClientProfile
  tokenEndpointAuthMethod: 'private_key_jwt' | 'client_secret_basic' | 'tls_client_auth'
  requestObjectSigningAlg: 'PS256' | 'none'
  grantTypes: string[]
  responseTypes: string[]
  applicationType: 'web' | 'mobile'
  scopes: string[]
  softwareStatement: string
  /** The software statement's claims (flattened into the registration response). */
  ssaClaims: Record<string, unknown>
  clientIdIssuedAt: number
  registeredWithCertificate?: string
}

export type SandboxClientMetadata = ClientMetadata & { ob_registration: ObRegistration }

/**
 * The registered clients: stored through oidc-provider's Client adapter (so the token and authorisation
 * endpoints find them), validated by oidc-provider's client schema before they are stored.
 */
export class ClientStore implements ClientRegistry {
  constructor(
    private readonly provider: Provider,
    private readonly storage: SandboxOidcStorage,
  ) {}

  /** The stored metadata, or undefined. */
  async metadata(clientId: string): Promise<SandboxClientMetadata | undefined> {
    const raw = (await this.storage.stored('Client', clientId))?.payload as SandboxClientMetadata | undefined
    return raw?.ob_registration ? raw : undefined
  }

  async get(clientId: string): Promise<RegisteredClient | undefined> {
    const metadata = await this.metadata(clientId)
    if (!metadata) return undefined
    const ob = metadata.ob_registration
    return {
      clientId,
      orgId: ob.orgId,
      softwareId: ob.softwareId,
      softwareRoles: ob.softwareRoles,
      redirectUris: [...(metadata.redirect_uris ?? [])],
      tokenEndpointAuthMethod: ob.tokenEndpointAuthMethod,
      profile: ob.profile,
      registeredWithCertificate: ob.registeredWithCertificate,
    }
  }

  /** Validates the metadata with oidc-provider's client schema, then stores it. */
  async save(metadata: SandboxClientMetadata): Promise<void> {
    try {
      await this.provider.Client.validate(metadata)
    } catch (err) {
      const e = err as { error?: string; error_description?: string; message: string }
      throw new RegistrationError(
        e.error === 'invalid_redirect_uri' ? 'invalid_redirect_uri' : 'invalid_client_metadata',
        e.error_description ?? e.message,
      )
    }
    await this.storage.adapter('Client').upsert(metadata.client_id, metadata as unknown as AdapterPayload, 0)
  }

  /** Deletes the client and everything issued to it (tokens, codes, grants). */
  async delete(clientId: string): Promise<void> {
    await this.storage.destroyClientArtifacts(clientId)
    await this.storage.adapter('Client').destroy(clientId)
  }
}

/**
 * The hook that keeps a client's keys current: the software's JWKS is read from the directory each
 * time oidc-provider loads the client, so a key added in the directory is usable at once.
 */
export function freshClientKeys(directory: Directory): (payload: AdapterPayload) => Promise<AdapterPayload> {
  return async (payload) => {
    const ob = (payload as { ob_registration?: ObRegistration }).ob_registration
    const software = ob ? await directory.software(ob.softwareId) : undefined
    return software ? { ...payload, jwks: { keys: software.jwks.keys } } : payload
  }
}
