import type { KeyInfoDto } from '../../contract/certificates.ts'
import type { ClientDto, EnvironmentDto } from '../../contract/environments.ts'

/**
 * What the console keeps between runs: one document, the same schema whether electron-store (the app)
 * or conf (Node: the web host, the CLI, tests) writes it. Private keys and client secrets are not here:
 * only ids of entries in the encrypted secret store.
 */
export interface TppRecord {
  id: string
  name: string
  orgId?: string
  softwareId?: string
  ssa?: string
  redirectUris: string[]
  transport?: { certificatePem: string; chainPem?: string; keySecretId: string; keyInfo: KeyInfoDto }
  signing?: { kid: string; keySecretId: string; certificatePem?: string; keyInfo: KeyInfoDto }
  rootCaPem?: string
  issuingCaPem?: string
  createdAt: string
}

export interface ClientRecord extends Omit<ClientDto, 'hasSecret'> {
  /** Secret-store id of the client secret (client_secret_basic). */
  secretId?: string
}

export type EnvironmentRecord = EnvironmentDto

export interface SettingsDocument {
  environments: EnvironmentRecord[]
  tpps: TppRecord[]
  /** Where earlier versions kept the registered clients: moved to the client store (one file each) on start. */
  clients: ClientRecord[]
}

const stringArray = { type: 'array', items: { type: 'string' } } as const

/** JSON Schema of each top-level key, as conf / electron-store take it (`schema` option). */
export const SETTINGS_SCHEMA = {
  environments: {
    type: 'array',
    default: [],
    items: {
      type: 'object',
      required: [
        'id',
        'name',
        'kind',
        'baseUrl',
        'authUrl',
        'apiPaths',
        'appScheme',
        'tlsVerification',
        'allowedAuthMethods',
        'builtIn',
      ],
      properties: {
        id: { type: 'string', minLength: 1 },
        name: { type: 'string', minLength: 1 },
        kind: { enum: ['local-sandbox', 'bank-sandbox', 'production'] },
        baseUrl: { type: 'string', format: 'uri' },
        authUrl: { type: 'string', format: 'uri' },
        apiPaths: {
          type: 'object',
          required: ['registration', 'ais', 'pis'],
          properties: {
            registration: { type: 'string' },
            ais: { type: 'string' },
            pis: { type: 'string' },
            o3: { type: 'string' },
          },
        },
        appScheme: { type: 'string' },
        tlsVerification: { enum: ['exact-ca', 'off', 'system'] },
        caBundlePem: { type: 'string' },
        tppId: { type: 'string' },
        allowedAuthMethods: {
          type: 'array',
          items: { enum: ['private_key_jwt', 'client_secret_basic', 'tls_client_auth'] },
        },
        builtIn: { type: 'boolean' },
        maxResponseBodyMiB: { type: 'integer', minimum: 1, maximum: 4096 },
      },
    },
  },
  tpps: {
    type: 'array',
    default: [],
    items: {
      type: 'object',
      required: ['id', 'name', 'redirectUris', 'createdAt'],
      properties: {
        id: { type: 'string', minLength: 1 },
        name: { type: 'string' },
        orgId: { type: 'string' },
        softwareId: { type: 'string' },
        ssa: { type: 'string' },
        redirectUris: stringArray,
        transport: { type: 'object', required: ['certificatePem', 'keySecretId', 'keyInfo'] },
        signing: { type: 'object', required: ['kid', 'keySecretId', 'keyInfo'] },
        rootCaPem: { type: 'string' },
        issuingCaPem: { type: 'string' },
        createdAt: { type: 'string' },
      },
    },
  },
  clients: {
    type: 'array',
    default: [],
    items: {
      type: 'object',
      required: [
        'clientId',
        'environmentId',
        'tppId',
        'authMethod',
        'scope',
        'redirectUris',
        'registration',
        'registeredAt',
      ],
      properties: {
        clientId: { type: 'string', minLength: 1 },
        environmentId: { type: 'string' },
        tppId: { type: 'string' },
        authMethod: { enum: ['private_key_jwt', 'client_secret_basic', 'tls_client_auth'] },
        scope: { type: 'string' },
        redirectUris: stringArray,
        registration: { type: 'object' },
        secretId: { type: 'string' },
        registeredAt: { type: 'string' },
      },
    },
  },
} as const
