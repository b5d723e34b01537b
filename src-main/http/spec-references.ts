// The specification sections each coded explanation rests on, so the inspector can say where a rule is
// written: the Open Banking v4.0 profile, the OAuth and OpenID RFCs, FAPI, and the bank's interface spec.
import type { SpecReferenceDto } from '../contract/diagnosis.ts'
import type { AppErrorDto } from '../contract/errors.ts'

const OB_PROFILE = 'OB Read/Write Data API Profile v4.0'
const OB_PROFILE_URL =
  'https://openbankinguk.github.io/read-write-api-site3/v4.0/profiles/read-write-data-api-profile.html'
const BANK = "The bank's interface specification"
const FAPI_URL = 'https://openid.net/specs/openid-financial-api-part-2-1_0.html'
const rfc = (n: number, section: string, anchor: string): SpecReferenceDto => ({
  document: `RFC ${n}`,
  section,
  url: `https://www.rfc-editor.org/rfc/rfc${n}#${anchor}`,
})

export const SPEC = {
  obErrors: {
    document: OB_PROFILE,
    section: 'Error Response Structure (OBErrorResponse1, ErrorCode from OBInternalErrorResponseError1Code)',
    url: OB_PROFILE_URL,
  },
  obStatuses: { document: OB_PROFILE, section: 'HTTP Status Codes', url: OB_PROFILE_URL },
  obSigning: { document: OB_PROFILE, section: 'Message Signing (x-jws-signature)', url: OB_PROFILE_URL },
  obIdempotency: { document: OB_PROFILE, section: 'Idempotency (x-idempotency-key)', url: OB_PROFILE_URL },
  bankTransport: { document: BANK, section: '§5 Authentication, 1. Transport: mutual TLS' },
  bankRegistration: { document: BANK, section: '§2.1 Client registration request and §4.1 Registration' },
  bankTokenAuth: {
    document: BANK,
    section: '§5 Authentication, 3. Token endpoint client authentication (private_key_jwt, PS256)',
  },
  bankPisSignature: {
    document: BANK,
    section: '§4.3 PIS and §7 Errors: every PIS request carries a valid x-jws-signature',
  },
  bankLimits: {
    document: BANK,
    section: '§8 Limits and §5 "Authorisation of data access by SCA": at most 4 PSU-absent accesses in 24 hours',
  },
  bankVersions: { document: BANK, section: '§9 Versioning (AIS and PIS v4.0, DCR v3.2)' },
  oauthTokenError: rfc(6749, '§5.2 Error Response (token endpoint)', 'section-5.2'),
  oauthAuthzError: rfc(6749, '§4.1.2.1 Error Response (authorisation endpoint)', 'section-4.1.2.1'),
  bearerError: rfc(6750, '§3.1 Error Codes (WWW-Authenticate)', 'section-3.1'),
  clientAssertion: rfc(7523, '§3 JWT Format and Processing Requirements (client authentication)', 'section-3'),
  mtls: rfc(8705, '§2 Mutual TLS for OAuth Client Authentication', 'section-2'),
  dcrError: rfc(7591, '§3.2.2 Client Registration Error Response', 'section-3.2.2'),
  obDcr: { document: 'OB Dynamic Client Registration v3.2', section: 'Client Registration Request and SSA validation' },
  requestObject: {
    document: 'OpenID Connect Core 1.0',
    section: '§6 Passing Request Parameters as JWTs',
    url: 'https://openid.net/specs/openid-connect-core-1_0.html#JWTRequests',
  },
  fapiTls: { document: 'FAPI 1.0 Advanced', section: '§8.5 TLS considerations', url: FAPI_URL },
} satisfies Record<string, SpecReferenceDto>

const SIGNATURE_CODES = /^U01[5-9]|^U020|Signature/

/** The sections behind an OAuth error code, by where it was answered. */
function oauthRefs(error: string, url: string): SpecReferenceDto[] {
  if (error === 'invalid_token' || error === 'insufficient_scope') return [SPEC.bearerError]
  if (error === 'invalid_request_object' || error === 'request_not_supported')
    return [SPEC.requestObject, SPEC.oauthAuthzError]
  if (!/\/token\b/.test(url)) return [SPEC.oauthAuthzError]
  return error === 'invalid_client'
    ? [SPEC.oauthTokenError, SPEC.clientAssertion, SPEC.mtls, SPEC.bankTokenAuth]
    : [SPEC.oauthTokenError]
}

/**
 * The specification sections a coded error rests on (the first one is the rule that was broken), for the
 * request it came from. Errors of the network itself (DNS, refused, reset) rest on no spec section; a POST
 * that got no answer points at idempotency (the bank may have acted).
 */
export function specReferencesFor(error: AppErrorDto, request: { method: string; url: string }): SpecReferenceDto[] {
  const post = request.method.toUpperCase() === 'POST'
  const status = typeof error.details?.status === 'number' ? error.details.status : undefined
  switch (error.code) {
    case 'TLS_CLIENT_CERT_REFUSED':
      return [SPEC.bankTransport, SPEC.mtls]
    case 'TLS_SERVER_UNTRUSTED':
    case 'TLS_HOSTNAME_MISMATCH':
    case 'TLS_SERVER_CERT_EXPIRED':
    case 'TLS_HANDSHAKE_FAILED':
      return [SPEC.bankTransport, SPEC.fapiTls]
    case 'TIMEOUT':
    case 'CONNECTION_RESET':
      return post ? [SPEC.obIdempotency] : []
    case 'OB_ERROR': {
      const codes = (error.problems ?? []).map((p) => p.code).join(' ')
      const signing = SIGNATURE_CODES.test(codes)
        ? [SPEC.obSigning, ...(/\/pisp\//.test(request.url) ? [SPEC.bankPisSignature] : [])]
        : []
      return [SPEC.obErrors, ...signing, ...(status === 429 ? [SPEC.bankLimits] : [])]
    }
    case 'DCR_ERROR':
      return [SPEC.dcrError, SPEC.obDcr, SPEC.bankRegistration]
    case 'OAUTH_ERROR':
      return oauthRefs(error.problems?.[0]?.code ?? '', request.url)
    case 'HTTP_ERROR': {
      if (status === 401) return [SPEC.obStatuses, SPEC.bearerError]
      if (status === 429) return [SPEC.obStatuses, SPEC.bankLimits]
      if (status === 404) return [SPEC.obStatuses, SPEC.bankVersions]
      if (status === 415 && /\/register\b/.test(request.url)) return [SPEC.obStatuses, SPEC.bankRegistration]
      if (status === 400 && /\/pisp\//.test(request.url)) return [SPEC.obStatuses, SPEC.bankPisSignature]
      return [SPEC.obStatuses]
    }
    default:
      return []
  }
}
