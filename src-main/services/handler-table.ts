import type { ContractHandlers } from '../contract/api.ts'
import { parseCertificates } from '../certificates/import-pem.ts'
import { inspectCertificate } from '../certificates/inspect.ts'
import { parseSoftwareStatement } from '../certificates/software-statement.ts'
import { AppError } from '../core/app-error.ts'
import type { Clock } from '../core/clock.ts'
import { redactJson } from '../core/redact.ts'
import { redactText } from '../core/redact-text.ts'
import { attempt, fail } from '../core/result.ts'
import { decodeJwt } from '../signing/jwt-decode.ts'
import { checkCallInput } from './call-input.ts'
import type { ConsoleServices } from './console-services.ts'
import { checkExchangeJwts } from './exchange-jwt-checks.ts'
import { jwtCheckSources, type KeyCache } from './exchange-jwt-sources.ts'
import { verifyJwt, type IdentityKeyLookup, type JwksFetcher } from './jwt-debugger.ts'
import { discoveryView } from './discovery-service.ts'
import { o3AuthCodeUrl, o3PostmanEnvironment } from './o3-service.ts'
import { tppToolHandlers, type ToolCalls } from './tpp-tool-handlers.ts'
import { SandboxClockService } from './sandbox-clock.ts'
import { sandboxFaultHandlers, type FaultCalls } from './sandbox-fault-handlers.ts'
import { SandboxReportService } from './sandbox-report.ts'
import { fetchDiscovery } from '../flows/common/discovery.ts'
import { jwksOf } from '../http/json-body.ts'

/**
 * Calls whose answers are masked where they are made, with the list of their secrets for Reveal: the
 * exchange log's views and exports, the flows' states, and a Reveal's own answer.
 */
// `sandbox.testPsus`: the local sandbox's fixture logins (printed by `ob-console sandbox` too), shown on purpose
// beside its login page; the call refuses every other environment kind.
const MASKED_AT_SOURCE = new Set([
  'sandbox.testPsus',
  'exchanges.get',
  'exchanges.export',
  'exchanges.list',
  'exchanges.har',
  'exchanges.postman',
  'secrets.reveal',
  'flows.start',
  'flows.get',
  'flows.list',
  'flows.runStep',
  'flows.runAll',
  'flows.capture',
])

/**
 * The first pass of every call: its input is checked against the contract's schema (call-input.ts) and a
 * misfit is answered INVALID_INPUT without running the handler. The last pass before an answer leaves the
 * main side: every answer (and every error's sentences) is
 * searched by content, so a token, code, credential or private key that reached one by a path nobody
 * thought of is masked or removed all the same (a registration response's `registration_access_token`,
 * a bank's error text quoting a body).
 */
export function guarded(handlers: ContractHandlers): ContractHandlers {
  const out: Record<string, (input: unknown) => Promise<unknown>> = {}
  // Each handler takes its call's input type; here they are one loop, each input checked against that type's
  // schema (checkCallInput) before its handler sees it.
  for (const [name, handler] of Object.entries(handlers) as Array<
    [
      string,
      (
        input: unknown,
      ) => Promise<{ ok: boolean; value?: unknown; error?: { what: string; cause: string; fix: string } }>,
    ]
  >) {
    const skipValue = MASKED_AT_SOURCE.has(name)
    out[name] = async (input: unknown) => {
      let r
      try {
        r = await handler(checkCallInput(name, input))
      } catch (err) {
        r = fail(err) // the input did not fit: the handler never ran
      }
      if (r.ok) return skipValue ? r : { ok: true, value: redactJson(r.value) }
      const e = r.error!
      return { ...r, error: { ...e, what: redactText(e.what), cause: redactText(e.cause), fix: redactText(e.fix) } }
    }
  }
  return out as unknown as ContractHandlers
}

/**
 * The contract's implementation: one function per call, each answering a Result (never throwing). The
 * same table serves Electron IPC and the web host. Nothing secret leaves through it unmasked (`guarded`).
 */
export function createHandlers(s: ConsoleServices, clock: Clock): ContractHandlers {
  return guarded(handlersOf(s, clock))
}

/** The calls of the contract whose names start with one of these domains. */
type CallsOf<Domain extends string> = Exclude<
  Extract<keyof ContractHandlers, `${Domain}.${string}`>,
  ToolCalls | FaultCalls
>

/** Fetches a JWKS for the JWT checks and debugger, by its URL or through the environment's discovery. */
function jwksFetcher(s: ConsoleServices): JwksFetcher {
  return async (source) => {
    let env = source.environmentId ? s.environments.get(source.environmentId) : undefined
    env ??= s.environments.list()[0]
    if (!env)
      throw new AppError('NOT_FOUND', {
        what: 'No environment to fetch the JWKS through.',
        cause: 'The console has no environment yet.',
        fix: 'Start the local sandbox or add an environment.',
      })
    const http = s.http.forIdentity(env, undefined, {})
    const url =
      source.jwksUrl ||
      (await fetchDiscovery(http, env.authUrl, { label: 'discovery (JWT debugger)' })).discovery.jwks_uri
    const res = await http.send({ method: 'GET', url, label: source.label ?? 'JWKS (JWT debugger)' })
    const keySet = jwksOf(res)
    if (!keySet)
      throw new AppError('HTTP_ERROR', {
        what: `The JWKS at ${url} answered ${res.status}.`,
        cause: 'It is not a JWKS document.',
        fix: 'Check the URL; it should return {"keys": [...]}.',
      })
    return keySet
  }
}

/** A TPP identity's signing key, for the JWT debugger to verify with (read on the main side). */
function identityKeyLookup(s: ConsoleServices): IdentityKeyLookup {
  return (tppId) => {
    const t = s.tpps.list().find((x) => x.id === tppId)
    return t?.signing ? { jwk: t.signing.key.publicJwk, name: t.name, kid: t.signing.kid } : undefined
  }
}

/** The answer of `app.info`: the console's version, host, data directory, and the local sandbox when it runs. */
function appInfo(s: ConsoleServices) {
  const e = s.environments
  const sb = e.localDirectory()
  const local = e.list().find((x) => x.kind === 'local-sandbox')
  return {
    version: s.info.version,
    host: s.info.host,
    dataDir: s.info.dataDir,
    ...(s.info.masterKey ? { masterKey: s.info.masterKey() } : {}),
    ...(sb && local
      ? { localSandbox: { baseUrl: local.baseUrl, authUrl: local.authUrl, directoryUrl: sb.directoryUrl } }
      : {}),
  }
}

/** The console's own information, the environments and the local sandbox's clock, test PSUs and report. */
function environmentHandlers(
  s: ConsoleServices,
): Pick<
  ContractHandlers,
  CallsOf<'app' | 'environments'> | 'sandbox.clock' | 'sandbox.testPsus' | 'sandbox.moveClock' | 'sandbox.report'
> {
  const e = s.environments
  const sandboxClock = new SandboxClockService(e, s.http, s.clocks)
  const sandboxReport = new SandboxReportService(e, s.http)
  return {
    'app.info': () => attempt(() => appInfo(s)),
    'sandbox.clock': () => attempt(() => sandboxClock.get(), 'Reading the sandbox clock failed'),
    'sandbox.testPsus': (input) => attempt(() => e.testPsus(input.environmentId)),
    'sandbox.moveClock': (input) => attempt(() => sandboxClock.move(input), 'Moving the sandbox clock failed'),
    'sandbox.report': (input) =>
      attempt(() => sandboxReport.get(input.clientId), 'Reading the conformance report failed'),
    'environments.list': () => attempt(() => e.list()),
    'environments.save': (input) => attempt(() => e.save(input), 'Saving the environment failed'),
    'environments.remove': (input) => attempt(() => e.remove(input.id)),
    'environments.startLocalSandbox': () => attempt(() => e.startLocalSandbox(), 'Starting the local sandbox failed'),
  }
}

/** The TPP identities, and the certificates and software statements read on their own. */
function identityHandlers(
  s: ConsoleServices,
  clock: Clock,
): Pick<ContractHandlers, CallsOf<'tpps' | 'certificates' | 'softwareStatements'>> {
  return {
    'tpps.list': () => attempt(() => s.tpps.list()),
    'tpps.save': (input) => attempt(() => s.tpps.save(input)),
    'tpps.remove': (input) => attempt(() => s.tpps.remove(input.id)),
    'tpps.importPem': (input) => attempt(() => s.tpps.importPem(input), 'Importing the PEM failed'),
    'tpps.importPkcs12': (input) => attempt(() => s.tpps.importPkcs12(input), 'Importing the PKCS#12 file failed'),
    'tpps.importSoftwareStatement': (input) => attempt(() => s.tpps.importSoftwareStatement(input)),
    'tpps.onboardLocal': (input) =>
      attempt(() => s.tpps.onboardLocal(input), 'Onboarding in the local directory failed'),
    'tpps.checkPrerequisites': (input) => attempt(() => s.tpps.checkPrerequisites(input.tppId)),
    'certificates.inspect': (input) =>
      attempt(
        () => parseCertificates(input.pem).map((c) => inspectCertificate(c, clock.now())),
        'Inspecting the certificate failed',
      ),
    'softwareStatements.decode': (input) => attempt(() => parseSoftwareStatement(input.ssa).statement),
  }
}

/** The registered clients: registration, the current client of each environment, discovery, the o3 helpers. */
function registrationHandlers(
  s: ConsoleServices,
): Pick<ContractHandlers, CallsOf<'registration' | 'clients' | 'discovery' | 'o3'>> {
  return {
    'registration.defaults': (input) => attempt(() => s.registration.defaults(input.environmentId, input.tppId)),
    'registration.preview': (input) =>
      attempt(() => s.registration.preview(input.environmentId, input.tppId, input.form)),
    'registration.register': (input) =>
      attempt(() => {
        return s.registration.register(input.environmentId, input.tppId, input.form, {
          sendAnyway: input.sendAnyway === true,
        })
      }, 'Registering the client failed'),
    'registration.read': (input) => attempt(() => s.registration.read(input.clientId)),
    'registration.update': (input) => attempt(() => s.registration.update(input.clientId, input.form)),
    'registration.delete': (input) => attempt(() => s.registration.delete(input.clientId)),
    'clients.list': (input) => attempt(() => s.registration.list(input.environmentId)),
    'clients.current': (input) =>
      attempt(() => {
        const environmentId = s.environments.get(input.environmentId).id
        const clientId = s.state.read().currentClients[environmentId]
        return clientId && s.registration.list(environmentId).some((c) => c.clientId === clientId) ? { clientId } : {}
      }),
    'clients.setCurrent': (input) =>
      attempt(() => {
        const client = s.registration.record(input.clientId)
        if (client.environmentId !== input.environmentId)
          throw new AppError('INVALID_INPUT', {
            what: `Client ${client.clientId} is not registered in this environment.`,
            cause: `It belongs to ${client.environmentId}.`,
            fix: 'Pick a client of this environment.',
          })
        s.state.update((d) => {
          d.currentClients[client.environmentId] = client.clientId
        })
      }),
    'discovery.view': (input) =>
      attempt(async () => {
        const env = s.environments.get(input.environmentId)
        const client = input.clientId ? s.registration.record(input.clientId) : undefined
        return discoveryView(
          env,
          s.http.forIdentity(env, undefined, {}),
          input.claims ?? (client?.registration as Record<string, unknown> | undefined),
        )
      }, 'Reading discovery failed'),
    'o3.authCodeUrl': (input) =>
      attempt(async () => {
        const client = s.registration.record(input.clientId)
        const token = await s.tokenFor(client.clientId)
        return o3AuthCodeUrl(
          s.environments.get(client.environmentId),
          await s.httpFor(client.environmentId, client.tppId),
          token,
          input.consentId,
          input.scope,
        )
      }, 'The auth-code-url helper failed'),
    'o3.postmanEnvironment': (input) =>
      attempt(async () => {
        const client = s.registration.record(input.clientId)
        const token = await s.tokenFor(client.clientId)
        return o3PostmanEnvironment(
          s.environments.get(client.environmentId),
          await s.httpFor(client.environmentId, client.tppId),
          token,
          client.clientId,
        )
      }, 'The Postman environment download failed'),
  }
}

/** The flows, their account data and PSU-absent budget, and the consents they made. */
function flowHandlers(s: ConsoleServices): Pick<ContractHandlers, CallsOf<'flows' | 'ais' | 'consents'>> {
  return {
    'flows.start': (input) => attempt(() => s.flows.start(input), 'Starting the flow failed'),
    'flows.get': (input) => attempt(() => s.flows.get(input.flowId)),
    'flows.list': (input) => attempt(() => s.flows.list(input)),
    'flows.runStep': (input) => attempt(() => s.flows.runStep(input.flowId, input.stepId)),
    'flows.runAll': (input) => attempt(() => s.flows.runAll(input.flowId, input.until)),
    'flows.capture': (input) => attempt(() => s.flows.capture(input.flowId, input.url)),
    'ais.accountData': (input) => attempt(() => s.flows.accountData(input.flowId)),
    'ais.budget': (input) => attempt(() => s.flows.budget(input.flowId)),
    'consents.list': (input) =>
      attempt(async () => {
        await s.clocks.refresh(input.environmentId) // days to expiry on the bank's clock
        return s.consents.list(input)
      }),
    'consents.get': (input) => attempt(() => s.consents.get(input.consentId), 'Reading the consent failed'),
    'flows.refreshToken': (input) =>
      attempt(() => s.flows.refreshToken(input.flowId), 'Refreshing the access token failed'),
    'consents.budget': (input) => attempt(() => s.flows.consentBudget(s.consents.record(input.consentId).consentId)),
    'ais.budgetBefore': (input) => attempt(() => s.flows.budgetBefore(input.flowId, input.stepId)),
    'consents.delete': (input) => attempt(() => s.consents.delete(input.consentId), 'Deleting the consent failed'),
  }
}

/** The exchange log, the secrets of exchanges and flows, and the JWT debugger. */
function exchangeHandlers(
  s: ConsoleServices,
  clock: Clock,
): Pick<ContractHandlers, CallsOf<'exchanges' | 'secrets' | 'jwt'>> {
  const fetchJwks = jwksFetcher(s)
  const keyCache: KeyCache = new Map()
  const identityKey = identityKeyLookup(s)
  return {
    'exchanges.list': (input) => attempt(() => s.http.exchanges.list(input)),
    'exchanges.get': (input) =>
      attempt(() => {
        const reveal = input.reveal ?? []
        if (reveal.some((r) => !r))
          throw new AppError('INVALID_INPUT', {
            what: 'exchanges.get got a reveal that is not a list of secret refs.',
            cause: "`reveal` lists refs from the exchange's own `secrets`, each a non-empty string.",
            fix: 'Send the refs as a list of strings, or leave `reveal` out for the masked view.',
          })
        return s.http.exchanges.get(input.id, reveal)
      }),
    'exchanges.conformance': (input) => attempt(() => s.http.exchanges.verdict(input.id)),
    'exchanges.export': (input) =>
      attempt(() => {
        const { id, format, ...paths } = input
        return s.http.exchanges.export(id, format === 'har' ? 'har' : 'curl', paths)
      }),
    'exchanges.checkJwts': (input) =>
      attempt(async () => {
        const id = input.id
        return { exchangeId: id, reports: await checkExchangeJwts(jwtCheckSources(s, id, fetchJwks, clock, keyCache)) }
      }, 'Checking the JWTs of the exchange failed'),
    'exchanges.clear': () => attempt(() => s.http.exchanges.clear()),
    'exchanges.har': (input) => attempt(() => s.http.exchanges.har(input)),
    'exchanges.postman': (input) =>
      attempt(() => {
        const { name, ...filter } = input
        return s.http.exchanges.postman(filter, name?.trim() || 'OB Console exchanges')
      }),
    'secrets.reveal': (input) =>
      attempt(() => {
        const { ref, exchangeId, flowId } = input
        if (exchangeId) return s.http.exchanges.reveal(exchangeId, ref)
        if (flowId) return s.flows.reveal(flowId, ref)
        throw new AppError('INVALID_INPUT', {
          what: 'secrets.reveal got neither an exchange nor a flow.',
          cause: 'A secret is revealed within the exchange or flow that holds it.',
          fix: 'Send exchangeId (or flowId) with the ref of one item of its secrets.',
        })
      }, 'Revealing the secret failed'),
    'jwt.decode': (input) => attempt(() => decodeJwt(input.token)),
    'jwt.verify': (input) => attempt(() => verifyJwt(input, fetchJwks, clock, identityKey), 'Verifying the JWT failed'),
  }
}

/** The table, area by area (the tools' and the fault mode's calls in their own files). */
function handlersOf(s: ConsoleServices, clock: Clock): ContractHandlers {
  return {
    ...environmentHandlers(s),
    ...identityHandlers(s, clock),
    ...registrationHandlers(s),
    ...flowHandlers(s),
    ...exchangeHandlers(s, clock),
    ...tppToolHandlers(s),
    ...sandboxFaultHandlers(s),
  }
}
