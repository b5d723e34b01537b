import type { ContractHandlers } from '../contract/api.ts'
import { parseCertificates } from '../certificates/import-pem.ts'
import { inspectCertificate } from '../certificates/inspect.ts'
import { parseSoftwareStatement } from '../certificates/software-statement.ts'
import { AppError } from '../core/app-error.ts'
import type { Clock } from '../core/clock.ts'
import { redactJson } from '../core/redact.ts'
import { redactText } from '../core/redact-text.ts'
import { attempt } from '../core/result.ts'
import { decodeJwt } from '../signing/jwt-decode.ts'
import type { ConsoleServices } from './console-services.ts'
import { checkExchangeJwts } from './exchange-jwt-checks.ts'
import { jwtCheckSources, type KeyCache } from './exchange-jwt-sources.ts'
import { verifyJwt, type JwksFetcher } from './jwt-debugger.ts'
import { discoveryView } from './discovery-service.ts'
import { o3AuthCodeUrl, o3PostmanEnvironment } from './o3-service.ts'
import { tppToolHandlers } from './tpp-tool-handlers.ts'
import { SandboxClockService } from './sandbox-clock.ts'
import { SandboxReportService } from './sandbox-report.ts'

function requireObject(input: unknown, call: string): Record<string, unknown> {
  if (!input || typeof input !== 'object')
    throw new AppError('INVALID_INPUT', {
      what: `The call ${call} got no input.`,
      cause: 'It takes an object.',
      fix: 'Send the input the contract names for this call.',
    })
  return input as Record<string, unknown>
}

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
 * The last pass before an answer leaves the main side: every answer (and every error's sentences) is
 * searched by content, so a token, code, credential or private key that reached one by a path nobody
 * thought of is masked or removed all the same (a registration response's `registration_access_token`,
 * a bank's error text quoting a body).
 */
export function guarded(handlers: ContractHandlers): ContractHandlers {
  const out: Record<string, (input: never) => Promise<unknown>> = {}
  for (const [name, handler] of Object.entries(handlers) as Array<
    [
      string,
      (input: never) => Promise<{ ok: boolean; value?: unknown; error?: { what: string; cause: string; fix: string } }>,
    ]
  >) {
    const skipValue = MASKED_AT_SOURCE.has(name)
    out[name] = async (input: never) => {
      const r = await handler(input)
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

function handlersOf(s: ConsoleServices, clock: Clock): ContractHandlers {
  const fetchJwks: JwksFetcher = async (source) => {
    let url = source.jwksUrl
    let env = source.environmentId ? s.environments.get(source.environmentId) : undefined
    env ??= s.environments.list()[0]
    if (!env)
      throw new AppError('NOT_FOUND', {
        what: 'No environment to fetch the JWKS through.',
        cause: 'The console has no environment yet.',
        fix: 'Start the local sandbox or add an environment.',
      })
    const http = s.http.forIdentity(env, undefined, {})
    if (!url) {
      const d = await http.send({
        method: 'GET',
        url: `${env.authUrl}/.well-known/openid-configuration`,
        label: 'discovery (JWT debugger)',
      })
      url = d.json?.jwks_uri
      if (typeof url !== 'string')
        throw new AppError('HTTP_ERROR', {
          what: "The environment's discovery document has no jwks_uri.",
          cause: `Discovery answered ${d.status}.`,
          fix: "Check the environment's auth URL.",
        })
    }
    const res = await http.send({ method: 'GET', url, label: source.label ?? 'JWKS (JWT debugger)' })
    if (res.status !== 200 || !Array.isArray(res.json?.keys))
      throw new AppError('HTTP_ERROR', {
        what: `The JWKS at ${url} answered ${res.status}.`,
        cause: 'It is not a JWKS document.',
        fix: 'Check the URL; it should return {"keys": [...]}.',
      })
    return res.json
  }
  const keyCache: KeyCache = new Map()
  const e = s.environments
  const sandboxClock = new SandboxClockService(e, s.http)
  const sandboxReport = new SandboxReportService(e, s.http)
  const info = () => {
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
  return {
    'app.info': () => attempt(info),
    'sandbox.clock': () => attempt(() => sandboxClock.get(), 'Reading the sandbox clock failed'),
    'sandbox.testPsus': (input) =>
      attempt(() => e.testPsus(String(requireObject(input, 'sandbox.testPsus').environmentId))),
    'sandbox.moveClock': (input) =>
      attempt(
        () => sandboxClock.move(requireObject(input, 'sandbox.moveClock') as never),
        'Moving the sandbox clock failed',
      ),
    'sandbox.report': (input) =>
      attempt(
        () => sandboxReport.get(String(requireObject(input, 'sandbox.report').clientId ?? '')),
        'Reading the conformance report failed',
      ),
    'environments.list': () => attempt(() => e.list()),
    'environments.save': (input) =>
      attempt(() => e.save(requireObject(input, 'environments.save') as never), 'Saving the environment failed'),
    'environments.remove': (input) => attempt(() => e.remove(String(requireObject(input, 'environments.remove').id))),
    'environments.startLocalSandbox': () => attempt(() => e.startLocalSandbox(), 'Starting the local sandbox failed'),
    'tpps.list': () => attempt(() => s.tpps.list()),
    'tpps.save': (input) => attempt(() => s.tpps.save(requireObject(input, 'tpps.save') as never)),
    'tpps.remove': (input) => attempt(() => s.tpps.remove(String(requireObject(input, 'tpps.remove').id))),
    'tpps.importPem': (input) =>
      attempt(() => s.tpps.importPem(requireObject(input, 'tpps.importPem') as never), 'Importing the PEM failed'),
    'tpps.importPkcs12': (input) =>
      attempt(
        () => s.tpps.importPkcs12(requireObject(input, 'tpps.importPkcs12') as never),
        'Importing the PKCS#12 file failed',
      ),
    'tpps.importSoftwareStatement': (input) =>
      attempt(() => s.tpps.importSoftwareStatement(requireObject(input, 'tpps.importSoftwareStatement') as never)),
    'tpps.onboardLocal': (input) =>
      attempt(
        () => s.tpps.onboardLocal(requireObject(input, 'tpps.onboardLocal') as never),
        'Onboarding in the local directory failed',
      ),
    'tpps.checkPrerequisites': (input) =>
      attempt(() => s.tpps.checkPrerequisites(String(requireObject(input, 'tpps.checkPrerequisites').tppId))),
    'certificates.inspect': (input) =>
      attempt(
        () =>
          parseCertificates(String(requireObject(input, 'certificates.inspect').pem)).map((c) =>
            inspectCertificate(c, clock.now()),
          ),
        'Inspecting the certificate failed',
      ),
    'softwareStatements.decode': (input) =>
      attempt(() => parseSoftwareStatement(String(requireObject(input, 'softwareStatements.decode').ssa)).statement),
    'registration.defaults': (input) =>
      attempt(() => {
        const i = requireObject(input, 'registration.defaults')
        return s.registration.defaults(String(i.environmentId), String(i.tppId))
      }),
    'registration.preview': (input) =>
      attempt(() => {
        const i = requireObject(input, 'registration.preview')
        return s.registration.preview(String(i.environmentId), String(i.tppId), (i.form ?? {}) as never)
      }),
    'registration.register': (input) =>
      attempt(() => {
        const i = requireObject(input, 'registration.register')
        return s.registration.register(String(i.environmentId), String(i.tppId), (i.form ?? {}) as never, {
          sendAnyway: i.sendAnyway === true,
        })
      }, 'Registering the client failed'),
    'registration.read': (input) =>
      attempt(() => s.registration.read(String(requireObject(input, 'registration.read').clientId))),
    'registration.update': (input) =>
      attempt(() => {
        const i = requireObject(input, 'registration.update')
        return s.registration.update(String(i.clientId), (i.form ?? {}) as never)
      }),
    'registration.delete': (input) =>
      attempt(() => s.registration.delete(String(requireObject(input, 'registration.delete').clientId))),
    'clients.list': (input) =>
      attempt(() => s.registration.list((input as { environmentId?: string } | undefined)?.environmentId)),
    'flows.start': (input) =>
      attempt(() => s.flows.start(requireObject(input, 'flows.start') as never), 'Starting the flow failed'),
    'flows.get': (input) => attempt(() => s.flows.get(String(requireObject(input, 'flows.get').flowId))),
    'flows.list': () => attempt(() => s.flows.list()),
    'flows.runStep': (input) =>
      attempt(() => {
        const i = requireObject(input, 'flows.runStep')
        return s.flows.runStep(String(i.flowId), String(i.stepId))
      }),
    'flows.runAll': (input) =>
      attempt(() => {
        const i = requireObject(input, 'flows.runAll')
        return s.flows.runAll(String(i.flowId), i.until === undefined ? undefined : String(i.until))
      }),
    'flows.capture': (input) =>
      attempt(() => {
        const i = requireObject(input, 'flows.capture')
        return s.flows.capture(String(i.flowId), String(i.url ?? ''))
      }),
    'ais.accountData': (input) =>
      attempt(() => s.flows.accountData(String(requireObject(input, 'ais.accountData').flowId))),
    'ais.budget': (input) => attempt(() => s.flows.budget(String(requireObject(input, 'ais.budget').flowId))),
    'exchanges.list': (input) => attempt(() => s.http.exchanges.list((input ?? {}) as never)),
    'exchanges.get': (input) =>
      attempt(() => {
        const i = requireObject(input, 'exchanges.get')
        const reveal = i.reveal ?? []
        if (!Array.isArray(reveal) || reveal.some((r) => typeof r !== 'string' || !r))
          throw new AppError('INVALID_INPUT', {
            what: 'exchanges.get got a reveal that is not a list of secret refs.',
            cause: "`reveal` lists refs from the exchange's own `secrets`, each a non-empty string.",
            fix: 'Send the refs as a list of strings, or leave `reveal` out for the masked view.',
          })
        return s.http.exchanges.get(String(i.id), reveal as string[])
      }),
    'exchanges.conformance': (input) =>
      attempt(() => s.http.exchanges.verdict(String(requireObject(input, 'exchanges.conformance').id))),
    'exchanges.export': (input) =>
      attempt(() => {
        const i = requireObject(input, 'exchanges.export')
        const path = (k: string) => (typeof i[k] === 'string' ? { [k]: i[k] as string } : {})
        return s.http.exchanges.export(String(i.id), i.format === 'har' ? 'har' : 'curl', {
          ...path('certPath'),
          ...path('keyPath'),
          ...path('caPath'),
        })
      }),
    'exchanges.checkJwts': (input) =>
      attempt(async () => {
        const id = String(requireObject(input, 'exchanges.checkJwts').id)
        return { exchangeId: id, reports: await checkExchangeJwts(jwtCheckSources(s, id, fetchJwks, clock, keyCache)) }
      }, 'Checking the JWTs of the exchange failed'),
    'exchanges.clear': () => attempt(() => s.http.exchanges.clear()),
    'exchanges.har': (input) => attempt(() => s.http.exchanges.har((input ?? {}) as never)),
    'exchanges.postman': (input) =>
      attempt(() => {
        const { name, ...filter } = (input ?? {}) as { name?: unknown }
        return s.http.exchanges.postman(
          filter as never,
          typeof name === 'string' && name.trim() ? name.trim() : 'OB Console exchanges',
        )
      }),
    'secrets.reveal': (input) =>
      attempt(() => {
        const i = requireObject(input, 'secrets.reveal')
        const ref = String(i.ref ?? '')
        if (typeof i.exchangeId === 'string' && i.exchangeId) return s.http.exchanges.reveal(i.exchangeId, ref)
        if (typeof i.flowId === 'string' && i.flowId) return s.flows.reveal(i.flowId, ref)
        throw new AppError('INVALID_INPUT', {
          what: 'secrets.reveal got neither an exchange nor a flow.',
          cause: 'A secret is revealed within the exchange or flow that holds it.',
          fix: 'Send exchangeId (or flowId) with the ref of one item of its secrets.',
        })
      }, 'Revealing the secret failed'),
    'jwt.decode': (input) => attempt(() => decodeJwt(String(requireObject(input, 'jwt.decode').token ?? ''))),
    'jwt.verify': (input) =>
      attempt(
        () => verifyJwt(requireObject(input, 'jwt.verify') as never, fetchJwks, clock),
        'Verifying the JWT failed',
      ),
    'consents.list': (input) =>
      attempt(() => s.consents.list((input ?? {}) as { clientId?: string; environmentId?: string })),
    'consents.get': (input) =>
      attempt(
        () => s.consents.get(String(requireObject(input, 'consents.get').consentId)),
        'Reading the consent failed',
      ),
    'flows.refreshToken': (input) =>
      attempt(
        () => s.flows.refreshToken(String(requireObject(input, 'flows.refreshToken').flowId)),
        'Refreshing the access token failed',
      ),
    'consents.budget': (input) =>
      attempt(() =>
        s.flows.consentBudget(s.consents.record(String(requireObject(input, 'consents.budget').consentId)).consentId),
      ),
    'ais.budgetBefore': (input) =>
      attempt(() => {
        const i = requireObject(input, 'ais.budgetBefore')
        return s.flows.budgetBefore(String(i.flowId), String(i.stepId))
      }),
    'consents.delete': (input) =>
      attempt(
        () => s.consents.delete(String(requireObject(input, 'consents.delete').consentId)),
        'Deleting the consent failed',
      ),
    'clients.current': (input) =>
      attempt(() => {
        const environmentId = s.environments.get(String(requireObject(input, 'clients.current').environmentId)).id
        const clientId = s.state.read().currentClients[environmentId]
        return clientId && s.registration.list(environmentId).some((c) => c.clientId === clientId) ? { clientId } : {}
      }),
    'clients.setCurrent': (input) =>
      attempt(() => {
        const i = requireObject(input, 'clients.setCurrent')
        const client = s.registration.record(String(i.clientId))
        if (client.environmentId !== String(i.environmentId))
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
        const i = requireObject(input, 'discovery.view')
        const env = s.environments.get(String(i.environmentId))
        const client = i.clientId ? s.registration.record(String(i.clientId)) : undefined
        const claims =
          i.claims && typeof i.claims === 'object' && !Array.isArray(i.claims)
            ? (i.claims as Record<string, unknown>)
            : undefined
        return discoveryView(
          env,
          s.http.forIdentity(env, undefined, {}),
          claims ?? (client?.registration as Record<string, unknown> | undefined),
        )
      }, 'Reading discovery failed'),
    'o3.authCodeUrl': (input) =>
      attempt(async () => {
        const i = requireObject(input, 'o3.authCodeUrl')
        const client = s.registration.record(String(i.clientId))
        const token = await s.tokenFor(client.clientId)
        return o3AuthCodeUrl(
          s.environments.get(client.environmentId),
          await s.httpFor(client.environmentId, client.tppId),
          token,
          String(i.consentId ?? ''),
          i.scope === undefined ? undefined : String(i.scope),
        )
      }, 'The auth-code-url helper failed'),
    'o3.postmanEnvironment': (input) =>
      attempt(async () => {
        const client = s.registration.record(String(requireObject(input, 'o3.postmanEnvironment').clientId))
        const token = await s.tokenFor(client.clientId)
        return o3PostmanEnvironment(
          s.environments.get(client.environmentId),
          await s.httpFor(client.environmentId, client.tppId),
          token,
          client.clientId,
        )
      }, 'The Postman environment download failed'),
    ...tppToolHandlers(s),
  }
}
