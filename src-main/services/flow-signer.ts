import type { JSONWebKeySet } from 'jose'
import type { EnvironmentKind } from '../contract/environment.ts'
import { AppError } from '../core/app-error.ts'
import type { Clock } from '../core/clock.ts'
import type { FlowHttp, FlowSigner } from '../flows/flow-context.ts'
import { createClientAssertion } from '../signing/client-assertion.ts'
import { signDetachedJws, verifyDetachedJws } from '../signing/detached-jws.ts'
import { validateIdToken } from '../signing/id-token.ts'
import { createRequestObject } from '../signing/request-object.ts'
import type { SigningKey } from '../signing/signing-key.ts'
import { jwksOf } from '../http/json-body.ts'

export interface FlowSignerOptions {
  signer?: SigningKey
  orgId?: string
  softwareId?: string
  environmentKind: EnvironmentKind
  /** The bank's JWKS is fetched through this (logged like every other exchange). */
  http: FlowHttp
  clock: Clock
}

const noKey = () =>
  new AppError('INVALID_INPUT', {
    what: "This step needs the TPP's signing key.",
    cause: 'The TPP identity has no signing key.',
    fix: 'Import the signing key (and its kid) into the TPP identity.',
  })

/**
 * The signing the flows need, on the signing layer: client assertions, request objects, detached
 * `x-jws-signature`, and checks of the bank's signatures and ID tokens against its JWKS (fetched once
 * per flow and URL).
 */
export function createFlowSigner(options: FlowSignerOptions): FlowSigner {
  const jwksCache = new Map<string, Promise<JSONWebKeySet>>()
  let serverOffsetSeconds: number | undefined
  const jwks = (uri: string) => {
    let p = jwksCache.get(uri)
    if (!p) {
      p = options.http.send({ method: 'GET', url: uri, label: 'bank JWKS' }).then((res) => {
        const keySet = jwksOf(res)
        if (!keySet) {
          jwksCache.delete(uri)
          throw new AppError('HTTP_ERROR', {
            what: `The bank's JWKS (${uri}) answered ${res.status}.`,
            cause: 'Without it no bank signature can be checked.',
            fix: 'Check the jwks_uri of the discovery document.',
          })
        }
        const date = Date.parse(res.headers.date ?? res.headers.Date ?? '')
        // The server's clock relative to ours, from the Date header of its answer (for the ID token's skew hint).
        if (Number.isFinite(date)) serverOffsetSeconds = Math.round(date / 1000) - options.clock.epochSeconds()
        return keySet
      })
      jwksCache.set(uri, p)
    }
    return p
  }
  const signer = () => {
    if (!options.signer) throw noKey()
    return options.signer
  }
  return {
    clientAssertion: (clientId, tokenEndpoint) =>
      createClientAssertion({ clientId, tokenEndpoint, signer: signer(), now: options.clock.epochSeconds() }),
    async requestObject(input) {
      const { jwt } = await createRequestObject({
        ...input,
        now: options.clock.epochSeconds(),
        environmentKind: options.environmentKind,
        ...(input.alg === 'PS256' ? { signer: signer() } : {}),
      })
      return jwt
    },
    detachedJws(body) {
      if (!options.orgId || !options.softwareId)
        throw new AppError('INVALID_INPUT', {
          what: 'The x-jws-signature needs the organisation and software ids.',
          cause: 'The TPP identity has no software statement to take them from.',
          fix: 'Import the software statement assertion into the TPP identity.',
        })
      return signDetachedJws(body, {
        signer: signer(),
        orgId: options.orgId,
        softwareId: options.softwareId,
        now: options.clock.epochSeconds(),
      })
    },
    async verifyDetachedJws(jws, body, jwksUri) {
      const { checks } = await verifyDetachedJws(jws, body, {
        jwks: await jwks(jwksUri),
        now: options.clock.epochSeconds(),
      })
      return checks.map((c) => ({ ...c, name: `response ${c.name}` }))
    },
    async checkIdToken(idToken, expected, jwksUri) {
      const keys = await jwks(jwksUri)
      const now = options.clock.epochSeconds()
      const { checks } = await validateIdToken(idToken, {
        ...expected,
        jwks: keys,
        now,
        ...(serverOffsetSeconds !== undefined ? { serverTime: now + serverOffsetSeconds } : {}),
      })
      return checks
    },
  }
}
