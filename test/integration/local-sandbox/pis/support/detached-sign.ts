/**
 * Detached JWS for the tests, signed by hand (RFC 7515: RSASSA-PSS SHA-256, salt 32, over
 * b64url(header).b64url(body)) so any header, valid or not, can be produced; RS256 when the header
 * says so. Shares no code with src-main/local-sandbox/pis/jws.
 */
import { KeyObject, constants, sign as nodeSign } from 'node:crypto'
import type { CryptoKey } from 'jose'

export const OB_IAT = 'http://openbanking.org.uk/iat'
export const OB_ISS = 'http://openbanking.org.uk/iss'
export const OB_TAN = 'http://openbanking.org.uk/tan'
export const OB_CRIT = [OB_IAT, OB_ISS, OB_TAN]

export interface SignOptions {
  /** Header claims to set (undefined removes the claim). */
  header?: Record<string, unknown>
  key?: CryptoKey
  /** Sign other bytes than the body sent (a tampered body). */
  signedBody?: string
}

/** The signer's identity: its key, kid and `{org_id}/{software_id}`. */
export interface TppSigner {
  kid: string
  privateKey: CryptoKey
  iss: string
}

/** `b64url(header)..b64url(signature)` of `body` for `signer`, with the header changes of `opts`. */
export function signDetached(body: string, signer: TppSigner, opts: SignOptions = {}): string {
  const header: Record<string, unknown> = {
    alg: 'PS256',
    kid: signer.kid,
    typ: 'JOSE',
    cty: 'application/json',
    [OB_IAT]: Math.floor(Date.now() / 1000) - 1,
    [OB_ISS]: signer.iss,
    [OB_TAN]: 'openbanking.org.uk',
    crit: OB_CRIT,
  }
  for (const [k, v] of Object.entries(opts.header ?? {})) {
    if (v === undefined) delete header[k]
    else header[k] = v
  }
  const protectedB64 = Buffer.from(JSON.stringify(header)).toString('base64url')
  const input = `${protectedB64}.${Buffer.from(opts.signedBody ?? body, 'utf8').toString('base64url')}`
  const key = KeyObject.from(opts.key ?? signer.privateKey)
  const padding =
    header.alg === 'RS256'
      ? { padding: constants.RSA_PKCS1_PADDING }
      : { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }
  return `${protectedB64}..${nodeSign('sha256', Buffer.from(input), { key, ...padding }).toString('base64url')}`
}
