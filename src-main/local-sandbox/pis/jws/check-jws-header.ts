import { ObApiError, type ObErrorDetail } from '../../http/ob-error.ts'
import {
  ACCEPTED_CTY,
  ALLOWED_HEADER_CLAIMS,
  IAT_FUTURE_SKEW_SECONDS,
  OB_CRIT,
  OB_IAT,
  OB_ISS,
  OB_TAN,
  OB_TRUST_ANCHOR,
  REQUIRED_HEADER_CLAIMS,
} from './ob-jws-header.ts'
import { JWS_HEADER_NAME } from './parse-detached-jws.ts'

export interface HeaderExpectations {
  /** The `http://openbanking.org.uk/iss` the caller must use: `{org_id}/{software_id}` of its client. */
  iss: string
  /** Sandbox time, seconds since the epoch. */
  nowSeconds: number
}

function missing(claim: string, hint: string): ObErrorDetail {
  return { code: 'U017', path: JWS_HEADER_NAME, message: `the JWS header has no "${claim}" claim; ${hint}` }
}

function invalid(message: string): ObErrorDetail {
  return { code: 'U016', path: JWS_HEADER_NAME, message }
}

const REQUIRED_HINTS: Record<string, string> = {
  alg: 'it must be "PS256"',
  kid: "it must name the signing key on the software statement's JWKS",
  [OB_IAT]: 'it must be the signing time as a JSON number of seconds since the epoch',
  [OB_ISS]: 'it must be "{org_id}/{software_id}" of the calling TPP',
  [OB_TAN]: `it must be "${OB_TRUST_ANCHOR}"`,
  crit: `it must be exactly ${JSON.stringify(OB_CRIT)}`,
}

/**
 * Checks the JOSE header of a request's `x-jws-signature` against the v4.0 rules and returns every
 * problem: `U017` for a missing claim, `U016` for a claim with a wrong value (including `b64`, which
 * v4.0 forbids, and any claim outside the v4.0 list). Throws an `ObApiError` (400) listing them all.
 */
export function checkJwsHeader(header: Record<string, unknown>, expect: HeaderExpectations): void {
  const problems: ObErrorDetail[] = []
  for (const claim of REQUIRED_HEADER_CLAIMS) {
    if (header[claim] === undefined) problems.push(missing(claim, REQUIRED_HINTS[claim]!))
  }
  if ('b64' in header) {
    problems.push(
      invalid(
        'the JWS header carries "b64": Open Banking v4.0 signs the base64url-encoded body and forbids the b64 claim (it was b64:false up to v3.1.3); remove it and list only the three OB claims in crit',
      ),
    )
  }
  for (const claim of Object.keys(header)) {
    if (claim !== 'b64' && !ALLOWED_HEADER_CLAIMS.includes(claim)) {
      problems.push(
        invalid(
          `the JWS header carries "${claim}", which v4.0 does not allow; the header may hold only ${ALLOWED_HEADER_CLAIMS.join(', ')}`,
        ),
      )
    }
  }
  const { alg, kid, typ, cty, crit } = header
  if (alg !== undefined && alg !== 'PS256')
    problems.push(invalid(`the JWS header's "alg" is ${JSON.stringify(alg)}; Open Banking requires "PS256"`))
  if (kid !== undefined && (typeof kid !== 'string' || kid === ''))
    problems.push(
      invalid(`the JWS header's "kid" is ${JSON.stringify(kid)}; it must be the non-empty key id of the signing key`),
    )
  if (typ !== undefined && typ !== 'JOSE')
    problems.push(invalid(`the JWS header's "typ" is ${JSON.stringify(typ)}; when present it must be "JOSE"`))
  if (cty !== undefined && !ACCEPTED_CTY.includes(cty as string)) {
    problems.push(
      invalid(`the JWS header's "cty" is ${JSON.stringify(cty)}; when present it must be "json" or "application/json"`),
    )
  }
  const iat = header[OB_IAT]
  if (iat !== undefined) {
    if (typeof iat !== 'number' || !Number.isFinite(iat)) {
      problems.push(
        invalid(
          `"${OB_IAT}" is ${JSON.stringify(iat)}; it must be a JSON number of seconds since the epoch (not a string)`,
        ),
      )
    } else if (iat > expect.nowSeconds + IAT_FUTURE_SKEW_SECONDS) {
      problems.push(
        invalid(
          `"${OB_IAT}" is ${iat}, ${Math.round(iat - expect.nowSeconds)} s in the future (now is ${expect.nowSeconds}, wall time); it must be in the past: check your computer's clock`,
        ),
      )
    }
  }
  const iss = header[OB_ISS]
  if (iss !== undefined && iss !== expect.iss) {
    problems.push(
      invalid(
        `"${OB_ISS}" is ${JSON.stringify(iss)}; for this client it must be "${expect.iss}" ({org_id}/{software_id})`,
      ),
    )
  }
  const tan = header[OB_TAN]
  if (tan !== undefined && tan !== OB_TRUST_ANCHOR)
    problems.push(invalid(`"${OB_TAN}" is ${JSON.stringify(tan)}; the sandbox trusts only "${OB_TRUST_ANCHOR}"`))
  if (crit !== undefined) {
    const ok = Array.isArray(crit) && crit.length === OB_CRIT.length && OB_CRIT.every((c) => crit.includes(c))
    if (!ok)
      problems.push(
        invalid(
          `the JWS header's "crit" is ${JSON.stringify(crit)}; it must be exactly ${JSON.stringify(OB_CRIT)} (no b64, no other entries)`,
        ),
      )
  }
  if (problems.length > 0) throw new ObApiError(400, problems)
}
