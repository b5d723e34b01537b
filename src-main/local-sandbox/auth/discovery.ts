import type { SandboxAddresses } from '../context.ts'
import { ACR_CA, ACR_SCA, INTENT_CLAIM } from './provider/provider-config.ts'
import { REGISTRATION_PATH } from './registration/registration-routes.ts'

/**
 * The token endpoint, on the authorisation server `{auth_url}` (the bank's spec, sections 1 and 4.5: the
 * authorisation server serves it, and the registration audience `{auth_url}` refers to it); it requires the
 * client certificate there.
 */
export const TOKEN_PATH = '/token'
/** The userinfo endpoint, on `{base_url}` (mutual TLS). */
export const USERINFO_PATH = '/me'

/**
 * The discovery document as the sandbox serves it: oidc-provider's, corrected where the sandbox differs
 * from a single-origin server. The token endpoint lives on `{auth_url}` (client certificate required),
 * the registration and userinfo endpoints on `{base_url}` (mutual TLS), `none` request objects are accepted (permissive clients), and the Open Banking claims and
 * ACR values are listed.
 */
export function sandboxDiscovery(
  fromProvider: Record<string, unknown>,
  addresses: SandboxAddresses,
  extensions: { tlsClientAuth?: boolean } = {},
): Record<string, unknown> {
  const tokenEndpoint = `${addresses.authUrl}${TOKEN_PATH}`
  const registrationEndpoint = `${addresses.baseUrl}${REGISTRATION_PATH}`
  const userinfoEndpoint = `${addresses.baseUrl}${USERINFO_PATH}`
  const claims = new Set([
    ...((fromProvider.claims_supported as string[] | undefined) ?? []),
    'sub',
    INTENT_CLAIM,
    'acr',
  ])
  return {
    ...fromProvider,
    issuer: addresses.authUrl,
    token_endpoint: tokenEndpoint,
    registration_endpoint: registrationEndpoint,
    userinfo_endpoint: userinfoEndpoint,
    mtls_endpoint_aliases: {
      token_endpoint: tokenEndpoint,
      registration_endpoint: registrationEndpoint,
      userinfo_endpoint: userinfoEndpoint,
    },
    grant_types_supported: ['authorization_code', 'client_credentials', 'refresh_token'],
    response_types_supported: ['code id_token', 'code'],
    response_modes_supported: ['fragment', 'query', 'form_post'],
    token_endpoint_auth_methods_supported: [
      'private_key_jwt',
      'client_secret_basic',
      ...(extensions.tlsClientAuth ? ['tls_client_auth'] : []),
    ],
    token_endpoint_auth_signing_alg_values_supported: ['PS256'],
    id_token_signing_alg_values_supported: ['PS256'],
    userinfo_signing_alg_values_supported: ['PS256'],
    request_parameter_supported: true,
    request_uri_parameter_supported: false,
    request_object_signing_alg_values_supported: ['PS256', 'none'],
    claims_parameter_supported: true,
    claims_supported: [...claims],
    acr_values_supported: [ACR_SCA, ACR_CA],
    scopes_supported: ['openid', 'accounts', 'payments'],
    subject_types_supported: ['public'],
    tls_client_certificate_bound_access_tokens: true,
  }
}
