import { createHash } from 'node:crypto'
import type { EnvironmentDto } from '../contract/environments.ts'
import type { ExchangeDto, FailedStepDto } from '../contract/exchange.ts'
import type { ExchangeFilter, ExchangePage, ExchangeSummaryDto } from '../contract/exchange-summaries.ts'
import type { AnswerToCheck } from '../conformance/check-answer.ts'
import { ConformanceLens } from '../conformance/conformance-lens.ts'
import { AppError } from '../core/app-error.ts'
import type { Clock } from '../core/clock.ts'
import type { FlowHttp, FlowResponse } from '../flows/flow-context.ts'
import { toCurl, type CurlOptions } from '../http/curl.ts'
import type { HttpEnvironment, ServerTrust } from '../http/environment.ts'
import { ExchangeLog, type ExchangeHead } from '../http/exchange-log.ts'
import { toHar } from '../http/har.ts'
import { parseJsonBody } from '../http/json-body.ts'
import { toPostmanCollection } from '../http/postman.ts'
import { HttpClient, type HttpRequest } from '../http/http-client.ts'
import type { RetryPolicy } from '../http/retry-policy.ts'
import { ConformanceTracker } from './conformance-tracker.ts'
import type { HttpEngine, TransportIdentity } from './ports.ts'

export interface HttpEngineOptions {
  clock: Clock
  /** Exchanges kept (oldest dropped). */
  capacity?: number
  /** Bodies over this many bytes are kept truncated, with their size. */
  bodyCap?: number
  /** Bytes of the newest bodies kept as received, and of older ones kept compressed (see ExchangeLogOptions). */
  rawBodyBudget?: number
  compressedBodyBudget?: number
  /** Extra origins of an environment the client certificate may go to (the local sandbox's directory). */
  extraOrigins?: (environment: EnvironmentDto) => string[]
  /**
   * The largest response body read, in bytes, for every environment (the CLI's `--max-body-mib`); without
   * it, each environment's `maxResponseBodyMiB`, else the client's default (50 MiB).
   */
  maxBodyBytes?: number
  /**
   * The files and trust a curl or HAR export names by default for an exchange: the environment's TLS setting
   * (`trust`) and, for an exact CA, the CA bundle's file (`--cacert`); the caller's paths win.
   */
  curlPaths?: (exchange: ExchangeDto) => CurlOptions
  /** The retry policy of the clients (tests make its waits instant). */
  retry?: Partial<RetryPolicy>
  /** The bank-conformance lens (default: one with a worker thread for bank answers over 64 KiB). */
  lens?: ConformanceLens
}

function trustOf(env: EnvironmentDto): ServerTrust {
  if (env.tlsVerification === 'off') return { mode: 'off' }
  if (env.tlsVerification === 'exact-ca') {
    if (!env.caBundlePem)
      throw new AppError('INVALID_INPUT', {
        what: `"${env.name}" trusts an exact CA bundle but has none.`,
        cause: "No CA certificate to check the bank's servers against.",
        fix: 'Paste the CA bundle into the environment, or choose system trust.',
      })
    return { mode: 'ca-bundle', caPem: env.caBundlePem }
  }
  return { mode: 'system', ...(env.caBundlePem ? { extraCaPem: env.caBundlePem } : {}) }
}

/**
 * The path of an absolute URL as sent (`https://host:443/a/b?q#f` -> `/a/b`), without parsing it into a URL
 * object for every exchange; a string that is not `scheme://authority...` is kept whole.
 */
export function pathOf(url: string): string {
  const scheme = url.indexOf('://')
  if (scheme <= 0) return url
  const rest = url.slice(scheme + 3)
  const end = rest.search(/[/?#]/)
  if (end < 0 || rest[end] !== '/') return '/'
  const path = rest.slice(end)
  const cut = path.search(/[?#]/)
  return cut < 0 ? path : path.slice(0, cut)
}

function summarise(x: ExchangeHead, flowId: string | undefined, byConsole: boolean): ExchangeSummaryDto {
  const path = pathOf(x.url)
  // One per exchange: plain assignments, not conditional spreads (see ExchangeRecorder.exchangeInput).
  const s: ExchangeSummaryDto = {
    id: x.id,
    startedAt: x.startedAt,
    method: x.method,
    url: x.url,
    path,
    totalMs: x.totalMs,
    responseSize: x.responseSize,
  }
  if (x.status !== undefined) s.status = x.status
  if (x.errorCode) s.errorCode = x.errorCode
  if (flowId) s.flowId = flowId
  if (byConsole) s.byConsole = true
  if (x.label) s.label = x.label
  return s
}

/** Whether a summary passes the filter, the console's own exchanges aside (see `list`). */
function matchesRest(s: ExchangeSummaryDto, f: ExchangeFilter): boolean {
  if (f.flowId && s.flowId !== f.flowId) return false
  if (
    f.pathContains &&
    !s.path.toLowerCase().includes(f.pathContains.toLowerCase()) &&
    !(s.label ?? '').toLowerCase().includes(f.pathContains.toLowerCase())
  )
    return false
  if (f.status !== undefined) {
    if (typeof f.status === 'number') return s.status === f.status
    if (f.status === 'error') return s.status === undefined
    return s.status !== undefined && String(s.status)[0] === f.status[0]
  }
  return true
}

function matches(s: ExchangeSummaryDto, f: ExchangeFilter): boolean {
  return !(f.hideByConsole && s.byConsole) && matchesRest(s, f)
}

/**
 * The services' HTTP engine on the http layer: one HttpClient per (environment, transport identity), kept
 * for connection reuse; one exchange log; a summary index so the inspector lists and filters tens of
 * thousands of exchanges without building their full views.
 */
export function createHttpEngine(options: HttpEngineOptions): HttpEngine {
  // Bodies up to 12 MiB are kept whole, so the inspector can open a large transactions response; the
  // log's byte budgets (64 MiB as received, 96 MiB compressed by default) bound what 10,000 of them hold.
  const log = new ExchangeLog({
    capacity: options.capacity ?? 10_000,
    bodyCap: options.bodyCap ?? 12 * 1024 * 1024,
    ...(options.rawBodyBudget !== undefined ? { rawBodyBudget: options.rawBodyBudget } : {}),
    ...(options.compressedBodyBudget !== undefined ? { compressedBodyBudget: options.compressedBodyBudget } : {}),
  })
  const clients = new Map<string, HttpClient>()
  const summaries: ExchangeSummaryDto[] = []
  const byId = new Map<string, ExchangeSummaryDto>()
  const flowOf = new Map<string, string>()
  // The exchanges the console made for itself (not the user's flows), by id, until recorded.
  const byConsole = new Set<string>()
  // The flow steps that failed on an exchange, by exchange id (few: one per failed step run).
  const failedSteps = new Map<string, FailedStepDto>()
  /** An exchange's view with the step that failed on it, if one did, and whether the console made it for itself. */
  const withFailedStep = (x: ExchangeDto): ExchangeDto => {
    const failed = failedSteps.get(x.id)
    if (failed) x.failedStep = { ...failed }
    if (byId.get(x.id)?.byConsole) x.byConsole = true
    return x
  }
  const recordListeners = new Set<(s: ExchangeSummaryDto) => void>()
  const capacity = options.capacity ?? 10_000
  // The environments met, by id: the lens judges an answer by the {base_url} and {auth_url} it came from.
  const environments = new Map<string, { baseUrl: string; authUrl: string }>()
  const conformance = new ConformanceTracker(options.lens ?? new ConformanceLens(), capacity, (id, result) => {
    const s = byId.get(id)
    if (!s || !result.checked) return
    s.violations = result.violations.length
    // The row again, with its count: the list shows it when the check ends.
    for (const l of recordListeners) l(s)
  })
  log.onDidRecordHead((x) => {
    const summary = summarise(x, flowOf.get(x.id), byConsole.delete(x.id))
    summaries.push(summary)
    byId.set(summary.id, summary)
    if (summaries.length > capacity)
      for (const old of summaries.splice(0, summaries.length - capacity)) {
        byId.delete(old.id)
        failedSteps.delete(old.id)
      }
    for (const l of recordListeners) l(summary)
    if (x.status === undefined) return
    const under = (origin: string) => x.url.startsWith(`${origin.replace(/\/+$/, '')}/`)
    const env = [...environments.values()].find((e) => under(e.baseUrl) || under(e.authUrl))
    if (!env) return
    conformance.enqueue(x.id, () => {
      const body = log.responseBody(x.id)
      if (!body && x.responseSize > 0)
        return { note: "The body is not kept whole (cut at the log's cap, or no longer kept): nothing to check." }
      const answer: AnswerToCheck = {
        method: x.method,
        url: x.url,
        baseUrl: env.baseUrl,
        authUrl: env.authUrl,
        status: x.status!,
        requestHeaders: x.requestHeaders,
        responseHeaders: x.responseHeaders ?? [],
      }
      if (body) answer.body = body
      return answer
    })
  })

  function clientFor(
    env: EnvironmentDto,
    transport: TransportIdentity | undefined,
    tppId: string | undefined,
  ): HttpClient {
    const idKey = transport ? createHash('sha256').update(transport.certPem).digest('hex').slice(0, 16) : 'none'
    const key = `${env.id}|${env.baseUrl}|${env.authUrl}|${env.tlsVerification}|${idKey}`
    let client = clients.get(key)
    environments.set(env.id, { baseUrl: env.baseUrl, authUrl: env.authUrl })
    if (!client) {
      const environment: HttpEnvironment = {
        id: env.id,
        kind: env.kind,
        origins: [env.baseUrl, env.authUrl, ...(options.extraOrigins?.(env) ?? [])],
        trust: trustOf(env),
      }
      client = new HttpClient({
        environment,
        ...(transport
          ? { identity: { id: tppId ?? idKey, certPem: transport.certPem, keyPem: transport.keyPem } }
          : {}),
        log,
        clock: options.clock,
        ...(options.retry ? { retry: options.retry } : {}),
      })
      clients.set(key, client)
    }
    return client
  }

  return {
    forIdentity(env, transport, meta): FlowHttp {
      const client = clientFor(env, transport, meta.tppId)
      return {
        async send(req): Promise<FlowResponse> {
          const request: HttpRequest = { method: req.method, url: req.url, label: req.label }
          if (req.headers) request.headers = req.headers
          if (req.body !== undefined) request.body = req.body
          if (req.clientCertificate === false || !transport) request.clientCertificate = false
          const maxBody =
            options.maxBodyBytes ??
            (env.maxResponseBodyMiB !== undefined ? env.maxResponseBodyMiB * 1024 * 1024 : undefined)
          if (maxBody !== undefined) request.maxBodyBytes = maxBody
          if (req.retry !== undefined) request.retry = req.retry
          // Every exchange of the request (each try, failed ones too) belongs to the flow, or to the console.
          const flowId = meta.flowId
          const own = meta.byConsole === true
          if (flowId || own) {
            request.onExchange = (id) => {
              if (flowId) flowOf.set(id, flowId)
              if (own) byConsole.add(id)
              const s = byId.get(id)
              if (s && flowId) s.flowId = flowId
              if (s && own) {
                // Recorded before it was marked (a failed try is recorded at once): its row again, marked.
                s.byConsole = true
                byConsole.delete(id)
                for (const l of recordListeners) l(s)
              }
            }
          }
          const res = await client.request(request)
          const headers: Record<string, string> = {}
          for (const [k, v] of res.headers) {
            const name = k.toLowerCase()
            const seen = headers[name]
            headers[name] = seen ? `${seen}, ${v}` : v
          }
          const text = res.text()
          let parsed: { value: unknown } | undefined
          return {
            exchangeId: res.exchangeId ?? '',
            status: res.status,
            headers,
            text,
            // Parsed when first read, once: a step that reads the answer (readBankAnswer) and a check beside it share it.
            get json() {
              return (parsed ??= { value: parseJsonBody(text, headers['content-type']) }).value
            },
          }
        },
        responseBody: (exchangeId) => log.responseBody(exchangeId),
        keepsWhole: (bytes) => bytes <= log.wholeBodyCap,
      }
    },
    exchanges: {
      list(filter: ExchangeFilter): ExchangePage {
        log.flush()
        const f = filter ?? {}
        const hits: ExchangeSummaryDto[] = []
        let hidden = 0
        for (const s of summaries) {
          if (!matchesRest(s, f)) continue
          if (f.hideByConsole && s.byConsole) hidden++
          else hits.push(s)
        }
        const offset = Math.max(0, f.offset ?? 0)
        const limit = Math.min(Math.max(1, f.limit ?? 200), 5000)
        const page: ExchangePage = { total: hits.length, items: hits.slice(offset, offset + limit) }
        if (f.hideByConsole) page.hiddenByConsole = hidden
        return page
      },
      summary: (id) => {
        log.flush()
        return byId.get(id)
      },
      get(id, reveal) {
        const view = withFailedStep(log.get(id, reveal?.length ? { reveal } : {}))
        const verdict = conformance.get(id)
        if (verdict) view.conformance = verdict
        return view
      },
      raw: (id) => withFailedStep(log.get(id, { raw: true })),
      noteFailedStep(id, failed) {
        failedSteps.set(id, { ...failed })
      },
      reveal: (id, ref) => log.reveal(id, ref),
      export(id, format, paths) {
        const x = withFailedStep(log.get(id))
        if (format === 'har') return JSON.stringify(toHar([x], undefined, options.curlPaths), null, 2)
        const given = Object.fromEntries(
          Object.entries(paths ?? {}).filter(([, v]) => typeof v === 'string' && v.length > 0),
        )
        return toCurl(x, { ...options.curlPaths?.(x), ...given })
      },
      har(filter) {
        log.flush()
        const ids = summaries.filter((s) => matches(s, filter ?? {})).map((s) => s.id)
        return JSON.stringify(
          toHar(
            ids.map((id) => withFailedStep(log.get(id))),
            undefined,
            options.curlPaths,
          ),
          null,
          2,
        )
      },
      postman(filter, name) {
        log.flush()
        const ids = summaries.filter((s) => matches(s, filter ?? {})).map((s) => s.id)
        return JSON.stringify(
          toPostmanCollection(
            ids.map((id) => log.get(id)),
            name,
          ),
          null,
          2,
        )
      },
      clear() {
        log.clear()
        conformance.clear()
        summaries.length = 0
        byId.clear()
        flowOf.clear()
        byConsole.clear()
        failedSteps.clear()
      },
      onRecord(listener) {
        recordListeners.add(listener)
        return () => recordListeners.delete(listener)
      },
      bodyStats: () => log.bodyStats(),
      idle: () => log.idle(),
      // The log records a moment after the answer (recordLater): flushed first, so the check has started.
      conformance(id) {
        log.flush()
        return conformance.whenChecked(id)
      },
      verdict(id) {
        log.flush()
        if (!byId.has(id)) {
          const cause = `it is not in the exchange log (the log keeps the last ${capacity} exchanges, or it was cleared)`
          throw new AppError('NOT_FOUND', {
            what: `Reading the conformance of exchange ${id} failed`,
            cause,
            fix: 'pick an exchange from the current list',
          })
        }
        return conformance.get(id)
      },
      conformanceSettled() {
        log.flush()
        return conformance.settled()
      },
    },
    async close() {
      await conformance.close()
      await Promise.all([...clients.values()].map((c) => c.close()))
      clients.clear()
    },
  }
}
