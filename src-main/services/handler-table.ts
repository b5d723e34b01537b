import type { ContractHandlers } from '../contract/api.ts'
import { parseCertificates } from '../certificates/import-pem.ts'
import { inspectCertificate } from '../certificates/inspect.ts'
import { parseSoftwareStatement } from '../certificates/software-statement.ts'
import { AppError } from '../core/app-error.ts'
import type { Clock } from '../core/clock.ts'
import { attempt } from '../core/result.ts'
import { decodeJwt } from '../signing/jwt-decode.ts'
import type { ConsoleServices } from './console-services.ts'
import { verifyJwt, type JwksFetcher } from './jwt-debugger.ts'
import { SandboxClockService } from './sandbox-clock.ts'

function requireObject(input: unknown, call: string): Record<string, unknown> {
  if (!input || typeof input !== 'object') throw new AppError('INVALID_INPUT', { what: `The call ${call} got no input.`, cause: 'It takes an object.', fix: 'Send the input the contract names for this call.' })
  return input as Record<string, unknown>
}

/**
 * The contract's implementation: one function per call, each answering a Result (never throwing). The
 * same table serves Electron IPC and the web host.
 */
export function createHandlers(s: ConsoleServices, clock: Clock): ContractHandlers {
  const fetchJwks: JwksFetcher = async (source) => {
    let url = source.jwksUrl
    let env = source.environmentId ? s.environments.get(source.environmentId) : undefined
    env ??= s.environments.list()[0]
    if (!env) throw new AppError('NOT_FOUND', { what: 'No environment to fetch the JWKS through.', cause: 'The console has no environment yet.', fix: 'Start the local sandbox or add an environment.' })
    const http = s.http.forIdentity(env, undefined, {})
    if (!url) {
      const d = await http.send({ method: 'GET', url: `${env.authUrl}/.well-known/openid-configuration`, label: 'discovery (JWT debugger)' })
      url = d.json?.jwks_uri
      if (typeof url !== 'string') throw new AppError('HTTP_ERROR', { what: 'The environment\'s discovery document has no jwks_uri.', cause: `Discovery answered ${d.status}.`, fix: 'Check the environment\'s auth URL.' })
    }
    const res = await http.send({ method: 'GET', url, label: 'JWKS (JWT debugger)' })
    if (res.status !== 200 || !Array.isArray(res.json?.keys)) throw new AppError('HTTP_ERROR', { what: `The JWKS at ${url} answered ${res.status}.`, cause: 'It is not a JWKS document.', fix: 'Check the URL; it should return {"keys": [...]}.' })
    return res.json
  }
  const e = s.environments
  const sandboxClock = new SandboxClockService(e, s.http)
  const info = () => {
    const sb = e.localDirectory()
    const local = e.list().find((x) => x.kind === 'local-sandbox')
    return {
      version: s.info.version,
      host: s.info.host,
      dataDir: s.info.dataDir,
      ...(sb && local ? { localSandbox: { baseUrl: local.baseUrl, authUrl: local.authUrl, directoryUrl: sb.directoryUrl } } : {}),
    }
  }
  return {
    'app.info': () => attempt(info),
    'sandbox.clock': () => attempt(() => sandboxClock.get(), 'Reading the sandbox clock failed'),
    'sandbox.testPsus': (input) => attempt(() => e.testPsus(String(requireObject(input, 'sandbox.testPsus').environmentId))),
    'sandbox.moveClock': (input) => attempt(() => sandboxClock.move(requireObject(input, 'sandbox.moveClock') as never), 'Moving the sandbox clock failed'),
    'environments.list': () => attempt(() => e.list()),
    'environments.save': (input) => attempt(() => e.save(requireObject(input, 'environments.save') as never), 'Saving the environment failed'),
    'environments.remove': (input) => attempt(() => e.remove(String(requireObject(input, 'environments.remove').id))),
    'environments.startLocalSandbox': () => attempt(() => e.startLocalSandbox(), 'Starting the local sandbox failed'),
    'tpps.list': () => attempt(() => s.tpps.list()),
    'tpps.save': (input) => attempt(() => s.tpps.save(requireObject(input, 'tpps.save') as never)),
    'tpps.remove': (input) => attempt(() => s.tpps.remove(String(requireObject(input, 'tpps.remove').id))),
    'tpps.importPem': (input) => attempt(() => s.tpps.importPem(requireObject(input, 'tpps.importPem') as never), 'Importing the PEM failed'),
    'tpps.importPkcs12': (input) => attempt(() => s.tpps.importPkcs12(requireObject(input, 'tpps.importPkcs12') as never), 'Importing the PKCS#12 file failed'),
    'tpps.importSoftwareStatement': (input) => attempt(() => s.tpps.importSoftwareStatement(requireObject(input, 'tpps.importSoftwareStatement') as never)),
    'tpps.onboardLocal': (input) => attempt(() => s.tpps.onboardLocal(requireObject(input, 'tpps.onboardLocal') as never), 'Onboarding in the local directory failed'),
    'tpps.checkPrerequisites': (input) => attempt(() => s.tpps.checkPrerequisites(String(requireObject(input, 'tpps.checkPrerequisites').tppId))),
    'certificates.inspect': (input) => attempt(() => parseCertificates(String(requireObject(input, 'certificates.inspect').pem)).map((c) => inspectCertificate(c, clock.now())), 'Inspecting the certificate failed'),
    'softwareStatements.decode': (input) => attempt(() => parseSoftwareStatement(String(requireObject(input, 'softwareStatements.decode').ssa)).statement),
    'registration.defaults': (input) => attempt(() => { const i = requireObject(input, 'registration.defaults'); return s.registration.defaults(String(i.environmentId), String(i.tppId)) }),
    'registration.preview': (input) => attempt(() => { const i = requireObject(input, 'registration.preview'); return s.registration.preview(String(i.environmentId), String(i.tppId), (i.form ?? {}) as never) }),
    'registration.register': (input) => attempt(() => { const i = requireObject(input, 'registration.register'); return s.registration.register(String(i.environmentId), String(i.tppId), (i.form ?? {}) as never) }, 'Registering the client failed'),
    'registration.read': (input) => attempt(() => s.registration.read(String(requireObject(input, 'registration.read').clientId))),
    'registration.update': (input) => attempt(() => { const i = requireObject(input, 'registration.update'); return s.registration.update(String(i.clientId), (i.form ?? {}) as never) }),
    'registration.delete': (input) => attempt(() => s.registration.delete(String(requireObject(input, 'registration.delete').clientId))),
    'clients.list': (input) => attempt(() => s.registration.list((input as { environmentId?: string } | undefined)?.environmentId)),
    'flows.start': (input) => attempt(() => s.flows.start(requireObject(input, 'flows.start') as never), 'Starting the flow failed'),
    'flows.get': (input) => attempt(() => s.flows.get(String(requireObject(input, 'flows.get').flowId))),
    'flows.list': () => attempt(() => s.flows.list()),
    'flows.runStep': (input) => attempt(() => { const i = requireObject(input, 'flows.runStep'); return s.flows.runStep(String(i.flowId), String(i.stepId)) }),
    'flows.runAll': (input) => attempt(() => { const i = requireObject(input, 'flows.runAll'); return s.flows.runAll(String(i.flowId), i.until === undefined ? undefined : String(i.until)) }),
    'flows.capture': (input) => attempt(() => { const i = requireObject(input, 'flows.capture'); return s.flows.capture(String(i.flowId), String(i.url ?? '')) }),
    'ais.accountData': (input) => attempt(() => s.flows.accountData(String(requireObject(input, 'ais.accountData').flowId))),
    'ais.budget': (input) => attempt(() => s.flows.budget(String(requireObject(input, 'ais.budget').flowId))),
    'exchanges.list': (input) => attempt(() => s.http.exchanges.list((input ?? {}) as never)),
    'exchanges.get': (input) => attempt(() => { const i = requireObject(input, 'exchanges.get'); return s.http.exchanges.get(String(i.id), i.reveal === true) }),
    'exchanges.export': (input) => attempt(() => { const i = requireObject(input, 'exchanges.export'); return s.http.exchanges.export(String(i.id), i.format === 'har' ? 'har' : 'curl') }),
    'exchanges.clear': () => attempt(() => s.http.exchanges.clear()),
    'jwt.decode': (input) => attempt(() => decodeJwt(String(requireObject(input, 'jwt.decode').token ?? ''))),
    'jwt.verify': (input) => attempt(() => verifyJwt(requireObject(input, 'jwt.verify') as never, fetchJwks, clock), 'Verifying the JWT failed'),
  }
}
