/**
 * The Open Banking v4.0 `x-jws-signature` header: claim names, the trust anchor, and the sandbox's own
 * identity as a signer. One place, so the verifier, the signer and the docs agree.
 */

export const OB_IAT = 'http://openbanking.org.uk/iat'
export const OB_ISS = 'http://openbanking.org.uk/iss'
export const OB_TAN = 'http://openbanking.org.uk/tan'

/** `crit` must hold exactly these three names (v4.0: no `b64`). */
export const OB_CRIT: readonly string[] = [OB_IAT, OB_ISS, OB_TAN]

/** The trust anchor the sandbox trusts: the (local stand-in for the) Open Banking directory. */
export const OB_TRUST_ANCHOR = 'openbanking.org.uk'

/** The only claims a v4.0 detached JWS header may carry. */
export const ALLOWED_HEADER_CLAIMS: readonly string[] = ['alg', 'kid', 'typ', 'cty', OB_IAT, OB_ISS, OB_TAN, 'crit']

/** Claims that must be present. `typ` and `cty` are optional. */
export const REQUIRED_HEADER_CLAIMS: readonly string[] = ['alg', 'kid', OB_IAT, OB_ISS, OB_TAN, 'crit']

/** Accepted `cty` values for JSON bodies. */
export const ACCEPTED_CTY: readonly string[] = ['json', 'application/json']

/**
 * The organisation id the local sandbox signs its PIS responses as (`http://openbanking.org.uk/iss`
 * of an ASPSP is `{org_id}` alone). 18 characters, like the directory's organisation ids.
 */
export const SANDBOX_ASPSP_ORG_ID = '0015800000LOCALSBX'

/**
 * How far in the future (seconds, wall time) a request's `http://openbanking.org.uk/iat` may be and
 * still count as "in the past": allows for a TPP whose clock runs slightly ahead.
 */
export const IAT_FUTURE_SKEW_SECONDS = 60

/** jose's option that makes it accept (and require) the three OB critical header parameters. */
export const OB_CRIT_OPTION: { crit: Record<string, boolean> } = {
  crit: Object.fromEntries(OB_CRIT.map((c) => [c, true])),
}
