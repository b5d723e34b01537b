/**
 * The rules the sandbox records about each client's requests (docs/local-sandbox.md, "Conformance report").
 * Each rule names what it checks and the section of the bank's interface spec it rests on; where that
 * spec says "not shown", the official Open Banking v4.0 files it defers to are named as well.
 */
export interface ConformanceRule {
  id: string
  title: string
  /** What the rule checks, in one or two sentences. */
  checks: string
  /** The bank spec's section(s), then the v4.0 / FAPI text where the bank's spec leaves it open. */
  spec: string
  /** Whether the sandbox refuses a failing request (`refused`), or answers it and only records it (`recorded`). */
  enforcement: 'refused' | 'recorded' | 'both'
}

export const CONFORMANCE_RULES = [
  {
    id: 'headers.required',
    title: 'Required request headers',
    checks:
      'Authorization: Bearer <token> on every AIS and PIS call; Content-Type: application/json on a body; an Accept that admits ' +
      'application/json; x-fapi-auth-date an RFC 7231 date and x-fapi-customer-ip-address an IP address when sent.',
    spec: '§5 items 5.7 and 6 (a token on every data and payment call); §4.2–4.3 leave the headers "not shown": official v4.0 OpenAPI request headers',
    enforcement: 'refused',
  },
  {
    id: 'headers.forbidden',
    title: 'Forbidden and dropped headers',
    checks:
      'No access token in the query string (access_token), no x-fapi-financial-id (dropped before v4.0), no x-idempotency-key ' +
      'or x-jws-signature on AIS calls, no x-idempotency-key on a GET or DELETE, no Content-Type on a GET or DELETE.',
    spec:
      '§4.3 (x-jws-signature belongs to the PIS POSTs), §9 (v4.0); official v4.0 request headers ("do not use" per method); ' +
      'FAPI 1 Advanced: no access token in the query',
    enforcement: 'recorded',
  },
  {
    id: 'interaction-id',
    title: 'x-fapi-interaction-id sent and unique',
    checks:
      'Every call carries its own x-fapi-interaction-id as a UUID, so the echoed value can be matched; a missing or non-UUID ' +
      "value is replaced by one the client never saw, and one id reused on a different call confuses both sides' logs (a retry " +
      'of the same call may reuse it).',
    spec:
      '§4 leaves headers "not shown": official v4.0 OpenAPI (x-fapi-interaction-id, a UUID the bank echoes); FAPI 1 Baseline ' +
      "(the client's interaction id is an RFC 4122 UUID)",
    enforcement: 'recorded',
  },
  {
    id: 'idempotency.key',
    title: 'x-idempotency-key on PIS POSTs',
    checks:
      'Every POST of a domestic payment consent or payment carries x-idempotency-key: at most 40 characters, no leading or trailing whitespace.',
    spec: '§4.3 (the two PIS POSTs); official v4.0 OpenAPI (x-idempotency-key, maxLength 40, pattern ^(?!\\s)(.*)(\\S)$)',
    enforcement: 'refused',
  },
  {
    id: 'idempotency.reuse',
    title: 'Idempotency keys reused only for retries',
    checks:
      'A key is reused within its 24 hours only to retry the identical request (same body bytes); the same key with another body is a conflict.',
    spec: '§4.3 (the PIS POSTs); official v4.0 idempotency rules (the body must not change under the same key)',
    enforcement: 'refused',
  },
  {
    id: 'jws.signature',
    title: 'Detached JWS present and valid',
    checks:
      'Every PIS POST carries x-jws-signature: a detached JWS (header..signature) that verifies with PS256 over the exact body ' +
      "bytes sent, with a kid on the software statement's JWKS.",
    spec: '§4.3 ("Requires header x-jws-signature"), §5 item 6.3 ("Every PIS request carries a valid x-jws-signature header"), §7 (rejected without it)',
    enforcement: 'refused',
  },
  {
    id: 'jws.header',
    title: 'JWS header claims',
    checks:
      'The JWS header holds alg PS256, kid, http://openbanking.org.uk/iat (a number, not in the future), ' +
      'http://openbanking.org.uk/iss = {org_id}/{software_id}, http://openbanking.org.uk/tan = openbanking.org.uk, crit exactly ' +
      'those three; no b64; typ JOSE and cty json when present.',
    spec: '§4.3 ("The JWS requirements for x-jws-signature: not shown"): official v4.0 Message Signing',
    enforcement: 'refused',
  },
  {
    id: 'schema.request-body',
    title: 'Request bodies match the v4.0 schemas',
    checks:
      'Request bodies are JSON and match the official v4.0 schema of their endpoint: OBReadConsent1 (account access consent), ' +
      'OBWriteDomesticConsent4 (payment consent), OBWriteDomestic2 (payment).',
    spec: '§2.2–2.3 and §4 (fields "not shown"): official v4.0 OpenAPI (account-info, payment-initiation)',
    enforcement: 'refused',
  },
  {
    id: 'psu-absent.budget',
    title: 'PSU-absent budget kept',
    checks:
      'Without the PSU (no x-fapi-customer-ip-address), account information is read at most 4 times in 24 hours (counted per ' +
      "the sandbox's PSU-absent profile); the fifth call is refused with 429.",
    spec: '§5 "Authorisation of data access by SCA" item 2; §8 (at most 4 times per 24 hours)',
    enforcement: 'refused',
  },
  {
    id: 'psu-absent.endpoints',
    title: 'Only SCA-exempt endpoints without the PSU',
    checks:
      'Without the PSU only GET /accounts, /accounts/{AccountId}, /accounts/{AccountId}/balances and ' +
      '/accounts/{AccountId}/transactions are called; every other data endpoint needs x-fapi-customer-ip-address.',
    spec: '§4.2 ("Exempt from SCA when the PSU is absent"); §5 "Authorisation of data access by SCA" item 2',
    enforcement: 'refused',
  },
  {
    id: 'consent.status',
    title: 'Consents used only while authorised',
    checks:
      'Data calls, funds confirmation and payments use a consent only while it is AUTH: not awaiting authorisation (AWAU), ' +
      'rejected (RJCT), revoked (CANC), expired (EXPD) or consumed by its payment (COND).',
    spec:
      '§5 items 5 and 6 (data is called, and the payment submitted, after the PSU authorised the consent); §3 (consent states ' +
      '"not shown"): official v4.0 consent statuses',
    enforcement: 'refused',
  },
  {
    id: 'token.use',
    title: 'The right token for the call',
    checks:
      'Client-credentials tokens for consents, authorisation-code tokens for data, funds and payments; the right scope ' +
      '(accounts, payments); a payment token for its own consent; bound to the transport certificate presenting it.',
    spec:
      '§5 item 4 (client_credentials to create a consent, authorization_code for the PSU-authorised token), item 1 (mutual TLS ' +
      'with the transport certificate)',
    enforcement: 'refused',
  },
  {
    id: 'token.expiry',
    title: 'No token used after it expired',
    checks:
      'An access token is not presented after it expired or was revoked: the client gets a new one (client credentials again, ' +
      "or the PSU's authorisation) instead of retrying with a dead token. Recorded for tokens the sandbox issued; an unknown " +
      'token counts as well.',
    spec: '§5 items 4 and 8 (token response fields "not shown"): RFC 6749 expires_in; official v4.0 (401 for an invalid or expired token)',
    enforcement: 'refused',
  },
  {
    id: 'pagination',
    title: 'Pagination followed',
    checks:
      'A paginated transactions list is read by following Links.Next until it is absent: no page skipped, no page past the ' +
      'last, no list left before its last page while Links.Next remained.',
    spec: '§4.2 ("Paginated with a page size of 100 transactions"), §8 (page size); official v4.0 Links/Meta (Next present while another page exists)',
    enforcement: 'both',
  },
] as const satisfies readonly ConformanceRule[]

export type ConformanceRuleId = (typeof CONFORMANCE_RULES)[number]['id']

export const RULE_IDS: readonly ConformanceRuleId[] = CONFORMANCE_RULES.map((r) => r.id)

export function ruleById(id: ConformanceRuleId): ConformanceRule {
  return CONFORMANCE_RULES.find((r) => r.id === id)!
}
