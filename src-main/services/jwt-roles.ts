import type { JwtRole } from '../contract/diagnosis.ts'

/** What the role guess reads of a JWT and its exchange. */
export interface JwtPlace {
  /** Where the finder found it: `request body`, `request query request`, `response header x-jws-signature`… */
  location: string
  claims?: Record<string, unknown>
  method: string
  url: string
}

/** Each role's rule set (the JWT debugger's names) and the words the inspector shows. */
export const ROLE_RULES: Record<JwtRole, { rules: string; words: string }> = {
  registration: { rules: 'registration', words: 'registration request' },
  'software-statement': { rules: 'software-statement', words: 'software statement (SSA)' },
  'request-object': { rules: 'request-object', words: 'request object' },
  'client-assertion': { rules: 'client-assertion', words: 'client assertion (private_key_jwt)' },
  'id-token': { rules: 'id-token', words: 'ID token' },
  'tpp-jws-signature': { rules: 'x-jws-signature', words: "the TPP's x-jws-signature" },
  'bank-jws-signature': { rules: 'x-jws-signature', words: "the bank's x-jws-signature" },
  'access-token': { rules: 'none', words: 'access token' },
  unknown: { rules: 'none', words: 'a JWT of no known role' },
}

const last = (location: string) =>
  location
    .split(/[ .›]+/)
    .filter(Boolean)
    .pop() ?? ''

/**
 * The role a JWT plays, guessed from where it sat in its exchange, with the reason in words: the body of a
 * registration POST, the SSA inside it (or in the registration answer), the `request` parameter of an
 * authorisation URL, a form's `client_assertion`, an `id_token` (token answer or redirect fragment), the
 * `x-jws-signature` of the request (the TPP's) or of the response (the bank's), a bearer or issued access token.
 *
 * @example jwtRoleOf({ location: 'request body client_assertion', method: 'POST', url: 'https://as/token' }) // { role: 'client-assertion', … }
 */
export function jwtRoleOf(place: JwtPlace): { role: JwtRole; label: string } {
  const { location, claims, method, url } = place
  const name = last(location)
  const said = (role: JwtRole, why: string) => ({ role, label: `${ROLE_RULES[role].words}: ${why}` })
  if (name === 'software_statement') {
    return said(
      'software-statement',
      `the software_statement ${location.startsWith('request') ? 'inside the registration request' : 'of the registration answer'}`,
    )
  }
  if (location === 'request header x-jws-signature')
    return said('tpp-jws-signature', "the detached signature of the request body, by the TPP's signing key")
  if (location === 'response header x-jws-signature')
    return said('bank-jws-signature', "the detached signature of the response body, by the bank's key")
  if (
    location === 'request body' &&
    method.toUpperCase() === 'POST' &&
    (/\/register(\/|$|\?)/.test(url) || typeof claims?.software_statement === 'string')
  ) {
    return said('registration', 'the signed JWT body of the registration POST')
  }
  if (name === 'request' && /query|body|fragment/.test(location))
    return said('request-object', `the request parameter (${location})`)
  if (name === 'client_assertion') return said('client-assertion', 'the client_assertion of the token request')
  if (name === 'id_token') {
    return said(
      'id-token',
      location.includes('location')
        ? 'the id_token of the redirect back to the TPP'
        : 'the id_token of the token answer',
    )
  }
  if (location === 'request header authorization' || name === 'access_token') {
    return said(
      'access-token',
      location.startsWith('request') ? 'the bearer token of the request' : 'the access token the bank issued',
    )
  }
  return said('unknown', `found at ${location}`)
}
