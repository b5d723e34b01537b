import type { EnvironmentKind } from './environments.ts'

/**
 * Which bank an environment talks to (defined with the environment DTOs in environments.ts). It decides
 * what the console allows: production accepts private_key_jwt only and never `alg: none`; the bank's
 * sandbox is reached with TLS verification off (as the bank's spec says); the local sandbox with its
 * exact CA bundle.
 */
export type { EnvironmentKind }

export const ENVIRONMENT_KINDS: readonly EnvironmentKind[] = ['local-sandbox', 'bank-sandbox', 'production']
