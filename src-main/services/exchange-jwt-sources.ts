import type { EnvironmentDto } from '../contract/environments.ts'
import type { ExchangeDto } from '../contract/exchange.ts'
import { AppError } from '../core/app-error.ts'
import type { Clock } from '../core/clock.ts'
import type { ConsoleServices } from './console-services.ts'
import type { BankDiscovery, JwtCheckSources } from './exchange-jwt-checks.ts'
import type { JwksFetcher } from './jwt-debugger.ts'
import { fetchDiscovery } from '../flows/common/discovery.ts'

function attemptOr<T>(f: () => T): T | undefined {
  try {
    return f()
  } catch {
    return undefined
  }
}

/** Discovery documents and JWKS read for the checks, by URL, for a few minutes (so browsing the log does not fill it). */
export type KeyCache = Map<string, { until: number; value: Promise<unknown> }>

/** How long a discovery document or JWKS read for the checks is used again. */
export const KEY_CACHE_MS = 5 * 60_000

function cached<T>(cache: KeyCache, clock: Clock, key: string, read: () => Promise<T>): Promise<T> {
  const now = clock.now().getTime()
  const hit = cache.get(key)
  if (hit && hit.until > now) return hit.value as Promise<T>
  const value = read()
  cache.set(key, { until: now + KEY_CACHE_MS, value })
  // A failed read is not kept: the next check tries again.
  value.catch(() => cache.delete(key))
  return value
}

/**
 * Where the keys and expected values for one exchange's JWT checks come from, read from the services: the
 * exchange as recorded, its environment, the flow's client, the TPP's public signing key (only the public
 * part: private keys stay in the secret store), the local directory's JWKS, and the bank's discovery
 * (logged as an exchange). Discovery and each JWKS are read again after `KEY_CACHE_MS`.
 */
export function jwtCheckSources(
  s: ConsoleServices,
  id: string,
  fetchJwks: JwksFetcher,
  clock: Clock,
  cache: KeyCache = new Map(),
): JwtCheckSources {
  const exchange = s.http.exchanges.raw(id)
  const flowId = s.http.exchanges.summary(id)?.flowId
  const flow = flowId ? attemptOr(() => s.flows.get(flowId)) : undefined
  const client = flow?.clientId ? attemptOr(() => s.registration.record(flow.clientId!)) : undefined
  const environment: EnvironmentDto | undefined = attemptOr(() =>
    s.environments.get(exchange.environmentId ?? flow?.environmentId ?? ''),
  )
  const tppId = client?.tppId ?? exchange.identityId
  const tpp = tppId ? s.tpps.list().find((t) => t.id === tppId) : undefined
  const directory = environment?.kind === 'local-sandbox' ? s.environments.localDirectory() : undefined
  const cachedJwks: JwksFetcher = (source) => {
    const through = environment && !source.environmentId ? { environmentId: environment.id } : {}
    const key = `jwks ${source.jwksUrl ?? `env:${source.environmentId ?? ''}`}`
    return cached(cache, clock, key, () => fetchJwks({ ...source, label: 'JWKS (inspector JWT checks)', ...through }))
  }
  const signing = tpp?.signing
    ? {
        kid: tpp.signing.kid,
        publicJwk: tpp.signing.key.publicJwk,
        ...(tpp.orgId ? { orgId: tpp.orgId } : {}),
        ...(tpp.softwareId ? { softwareId: tpp.softwareId } : {}),
      }
    : undefined
  return {
    exchange,
    ...(environment ? { environment } : {}),
    ...(signing ? { tpp: signing } : {}),
    ...(client ? { clientId: client.clientId } : {}),
    ...(directory ? { directoryJwksUrl: `${directory.directoryUrl}/jwks` } : {}),
    earlierOfFlow: () => {
      if (!flowId) return []
      const page = s.http.exchanges.list({ flowId, limit: 5000 })
      // Only those that can hold a request object (a `request` parameter) are read whole: a flow's data pages are large.
      const before = page.items
        .filter((x) => x.startedAt <= exchange.startedAt && x.id !== id && /[?&#]request=/.test(x.url))
        .reverse()
      return before.map((x) => attemptOr(() => s.http.exchanges.raw(x.id))).filter((x): x is ExchangeDto => !!x)
    },
    discovery: (): Promise<BankDiscovery> =>
      cached(cache, clock, `discovery ${environment?.authUrl ?? ''}`, async () => {
        if (!environment) {
          throw new AppError('NOT_FOUND', {
            what: "The bank's keys cannot be read for this exchange.",
            cause: 'Its environment is no longer known to the console.',
            fix: "Verify the JWT in the JWT debugger with the bank's JWKS URL.",
          })
        }
        const http = s.http.forIdentity(environment, undefined, { byConsole: true })
        const label = 'discovery (inspector JWT checks)'
        return (await fetchDiscovery(http, environment.authUrl, { label, clientCertificate: false })).discovery
      }),
    fetchJwks: cachedJwks,
    clock,
  }
}
