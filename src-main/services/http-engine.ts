import { createHash } from 'node:crypto'
import type { EnvironmentDto } from '../contract/environments.ts'
import type { ExchangeDto } from '../contract/exchange.ts'
import type { AnswerToCheck } from '../conformance/check-answer.ts'
import { ConformanceLens } from '../conformance/conformance-lens.ts'
import { AppError } from '../core/app-error.ts'
import type { Clock } from '../core/clock.ts'
import type { FlowHttp, FlowRequest, FlowResponse } from '../flows/flow-context.ts'
import { toCurl, type CurlOptions } from '../http/curl.ts'
import type { HttpEnvironment, ServerTrust } from '../http/environment.ts'
import { ExchangeLog, type ExchangeHead } from '../http/exchange-log.ts'
import { toHar } from '../http/har.ts'
import { parseJsonBody } from '../http/json-body.ts'
import { QuietTime } from '../http/quiet-time.ts'
import { toPostmanCollection } from '../http/postman.ts'
import { HttpClient, type HttpRequest, type HttpResponse } from '../http/http-client.ts'
import type { RetryPolicy } from '../http/retry-policy.ts'
import { ConformanceTracker } from './conformance-tracker.ts'
import { ExchangeIndex } from './exchange-index.ts'
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
  /** When the engine's requests pause (default: 15 ms without a request starting or ending, 1 s at most). */
  quiet?: QuietTime
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

/** What the engine's parts share: its options, the exchange log and its summary index, the conformance checks. */
interface EngineParts {
  options: HttpEngineOptions
  log: ExchangeLog
  index: ExchangeIndex
  conformance: ConformanceTracker
}

/**
 * Has the lens check a recorded answer from an environment met (judged by the {base_url} and {auth_url} it came
 * from); an exchange with no answer, or to another origin, is not checked.
 */
function checkAnswer(
  { log, conformance }: EngineParts,
  environments: ReadonlyMap<string, { baseUrl: string; authUrl: string }>,
  x: ExchangeHead,
): void {
  const status = x.status
  if (status === undefined) return
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
      status,
      requestHeaders: x.requestHeaders,
      responseHeaders: x.responseHeaders ?? [],
    }
    if (body) answer.body = body
    return answer
  })
}

/** A new client of an environment, with the transport identity's certificate when there is one. */
function newClient(
  { options, log }: EngineParts,
  env: EnvironmentDto,
  transport: TransportIdentity | undefined,
  identityId: string,
): HttpClient {
  const environment: HttpEnvironment = {
    id: env.id,
    kind: env.kind,
    origins: [env.baseUrl, env.authUrl, ...(options.extraOrigins?.(env) ?? [])],
    trust: trustOf(env),
  }
  return new HttpClient({
    environment,
    ...(transport ? { identity: { id: identityId, certPem: transport.certPem, keyPem: transport.keyPem } } : {}),
    log,
    clock: options.clock,
    ...(options.retry ? { retry: options.retry } : {}),
  })
}

type FlowMeta = Parameters<HttpEngine['forIdentity']>[2]

/** The client's request for a flow's, every exchange of it (each try, failed ones too) claimed for the flow or the console. */
function clientRequest(
  { options, index }: EngineParts,
  env: EnvironmentDto,
  withCertificate: boolean,
  meta: FlowMeta,
  req: FlowRequest,
): HttpRequest {
  const request: HttpRequest = { method: req.method, url: req.url, label: req.label }
  if (req.headers) request.headers = req.headers
  if (req.body !== undefined) request.body = req.body
  if (req.clientCertificate === false || !withCertificate) request.clientCertificate = false
  const maxBody =
    options.maxBodyBytes ?? (env.maxResponseBodyMiB !== undefined ? env.maxResponseBodyMiB * 1024 * 1024 : undefined)
  if (maxBody !== undefined) request.maxBodyBytes = maxBody
  if (req.retry !== undefined) request.retry = req.retry
  const flowId = meta.flowId
  const own = meta.byConsole === true
  if (flowId || own) request.onExchange = (id) => index.claim(id, flowId, own)
  return request
}

/**
 * The client's response as a flow reads it: headers by lower-case name (repeats joined), JSON parsed when first
 * read, once (a step that reads the answer, `readBankAnswer`, and a check beside it share it). A class, its
 * getter on the prototype: an object literal with a getter of its own gets a hidden class of its own, made in
 * the old generation, whose getter's closure then holds the body and its JSON through every young-generation
 * collection until a full one (measured: the journey's page bodies and their JSON promoted, 3.4 MB a journey).
 */
class ParsedResponse implements FlowResponse {
  readonly exchangeId: string
  readonly status: number
  readonly headers: Record<string, string>
  readonly text: string
  #parsed: { value: unknown } | undefined

  constructor(res: HttpResponse) {
    const headers: Record<string, string> = {}
    for (const [k, v] of res.headers) {
      const name = k.toLowerCase()
      const seen = headers[name]
      headers[name] = seen ? `${seen}, ${v}` : v
    }
    this.exchangeId = res.exchangeId ?? ''
    this.status = res.status
    this.headers = headers
    this.text = res.text()
  }

  get json(): unknown {
    return (this.#parsed ??= { value: parseJsonBody(this.text, this.headers['content-type']) }).value
  }
}

/** The engine's exchange queries and exports, over the log, the summary index and the conformance checks. */
function exchangesOf(parts: EngineParts): HttpEngine['exchanges'] {
  const { options, log, index, conformance } = parts
  const json = (value: unknown) => JSON.stringify(value, null, 2)
  return {
    list(filter) {
      log.flush()
      return index.list(filter)
    },
    summary: (id) => {
      log.flush()
      return index.get(id)
    },
    get(id, reveal) {
      const view = index.withFailedStep(log.get(id, reveal?.length ? { reveal } : {}))
      const verdict = conformance.get(id)
      if (verdict) view.conformance = verdict
      conformance.lookedAt(id)
      return view
    },
    raw: (id) => index.withFailedStep(log.get(id, { raw: true })),
    noteFailedStep: (id, failed) => index.noteFailedStep(id, failed),
    reveal: (id, ref) => log.reveal(id, ref),
    export(id, format, paths) {
      const x = index.withFailedStep(log.get(id))
      if (format === 'har') return json(toHar([x], undefined, options.curlPaths))
      const given = Object.fromEntries(
        Object.entries(paths ?? {}).filter(([, v]) => typeof v === 'string' && v.length > 0),
      )
      return toCurl(x, { ...options.curlPaths?.(x), ...given })
    },
    har(filter) {
      log.flush()
      const ids = index.idsMatching(filter)
      return json(
        toHar(
          ids.map((id) => index.withFailedStep(log.get(id))),
          undefined,
          options.curlPaths,
        ),
      )
    },
    postman(filter, name) {
      log.flush()
      return json(
        toPostmanCollection(
          index.idsMatching(filter).map((id) => log.get(id)),
          name,
        ),
      )
    },
    clear() {
      log.clear()
      conformance.clear()
      index.clear()
    },
    onRecord: (listener) => index.onRecord(listener),
    bodyStats: () => log.bodyStats(),
    idle: () => log.idle(),
    ...conformanceQueries(parts),
  }
}

/** The exchanges' conformance verdicts; the log records a moment after the answer (recordLater): flushed first. */
function conformanceQueries({ log, index, conformance }: EngineParts) {
  return {
    conformance(id: string) {
      log.flush()
      return conformance.whenChecked(id)
    },
    verdict(id: string) {
      log.flush()
      if (!index.has(id)) {
        const cause = `it is not in the exchange log (the log keeps the last ${index.capacity} exchanges, or it was cleared)`
        throw new AppError('NOT_FOUND', {
          what: `Reading the conformance of exchange ${id} failed`,
          cause,
          fix: 'pick an exchange from the current list',
        })
      }
      conformance.lookedAt(id)
      return conformance.get(id)
    },
    conformanceSettled() {
      log.flush()
      return conformance.settled()
    },
  } satisfies Partial<HttpEngine['exchanges']>
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
  const capacity = options.capacity ?? 10_000
  // The lens checks, and the stores write, in the pauses of the requests (quiet-time.ts).
  const quiet = options.quiet ?? new QuietTime()
  const index = new ExchangeIndex(capacity)
  const conformance = new ConformanceTracker(
    options.lens ?? new ConformanceLens(),
    capacity,
    (id, result) => {
      // The row again, with its count: the list shows it when the check ends.
      if (result.checked) index.noteViolations(id, result.violations.length)
    },
    quiet,
  )
  const parts: EngineParts = { options, log, index, conformance }
  const clients = new Map<string, HttpClient>()
  // The environments met, by id: the lens judges an answer by the {base_url} and {auth_url} it came from.
  const environments = new Map<string, { baseUrl: string; authUrl: string }>()
  log.onDidRecordHead((x) => {
    index.record(x)
    checkAnswer(parts, environments, x)
  })

  function clientFor(env: EnvironmentDto, transport: TransportIdentity | undefined, tppId: string | undefined) {
    const idKey = transport ? createHash('sha256').update(transport.certPem).digest('hex').slice(0, 16) : 'none'
    const key = `${env.id}|${env.baseUrl}|${env.authUrl}|${env.tlsVerification}|${idKey}`
    let client = clients.get(key)
    environments.set(env.id, { baseUrl: env.baseUrl, authUrl: env.authUrl })
    if (!client) {
      client = newClient(parts, env, transport, tppId ?? idKey)
      clients.set(key, client)
    }
    return client
  }

  // Each drop of the connections starts a new generation: a FlowHttp made before takes a new client.
  let generation = 0
  const dropConnections = async () => {
    const open = [...clients.values()]
    clients.clear()
    generation++
    await Promise.all(open.map((c) => c.close()))
  }

  return {
    forIdentity(env, transport, meta): FlowHttp {
      let client = clientFor(env, transport, meta.tppId)
      let made = generation
      const current = () => {
        if (made !== generation) [client, made] = [clientFor(env, transport, meta.tppId), generation]
        return client
      }
      return {
        send: async (req) => {
          quiet.activity()
          try {
            return new ParsedResponse(await current().request(clientRequest(parts, env, !!transport, meta, req)))
          } finally {
            quiet.activity()
          }
        },
        responseBody: (exchangeId) => log.responseBody(exchangeId),
        keepsWhole: (bytes) => bytes <= log.wholeBodyCap,
        preconnect: (url, opts) => current().preconnect(url, transport ? (opts ?? {}) : { clientCertificate: false }),
      }
    },
    exchanges: exchangesOf(parts),
    quiet,
    dropConnections,
    async close() {
      await conformance.close()
      await dropConnections()
    },
  }
}
