import { randomUUID } from 'node:crypto'
import type { EnvironmentDto, EnvironmentInput } from '../contract/environments.ts'
import { AppError } from '../core/app-error.ts'
import type { SettingsStore } from './persistence/settings-store.ts'

/** Starts the embedded local sandbox on demand; the composition root (CLI, Electron) supplies it. */
export interface LocalSandboxPort {
  start(): Promise<{ baseUrl: string; authUrl: string; directoryUrl: string; caBundlePem: string }>
  /** The running sandbox's addresses, when it runs. */
  current(): { baseUrl: string; authUrl: string; directoryUrl: string } | undefined
  /** The running embedded sandbox's test PSUs (logins for its login page); absent for a sandbox run elsewhere. */
  testPsus?(): Array<{ username: string; password: string; name: string }> | undefined
  /** The embedded sandbox's clock offset (ms) as its store keeps it, read while it does not run; absent for one run elsewhere. */
  storedClockOffsetMs?(): number
}

export const LOCAL_SANDBOX_ENVIRONMENT_ID = 'local-sandbox'

export const DEFAULT_API_PATHS = {
  registration: '/dynamic-client-registration/v3.2/register',
  ais: '/open-banking/v4.0/aisp',
  pis: '/open-banking/v4.0/pisp',
} as const

/** The directory address of the embedded sandbox, for the one-action starter kit. */
export interface LocalDirectoryAddress {
  directoryUrl: string
}

function invalid(what: string, cause: string, fix: string): AppError {
  return new AppError('INVALID_INPUT', { what, cause, fix })
}

function checkUrl(name: string, value: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw invalid(
      `The environment's ${name} is not a URL: "${value}".`,
      `${name} must be an absolute https URL.`,
      `Enter it like https://ob.bank.example (no trailing path).`,
    )
  }
  if (url.protocol !== 'https:')
    throw invalid(
      `The environment's ${name} must use https: "${value}".`,
      'Open Banking endpoints are served over TLS (mutual TLS for {base_url}).',
      'Use the https:// address the bank documents.',
    )
  return value.replace(/\/+$/, '')
}

function checkPath(name: string, value: string): string {
  if (!/^\/[\w\-./]*$/.test(value))
    throw invalid(
      `The API path ${name} "${value}" is not a path.`,
      'API paths start with / and hold no spaces or query.',
      `e.g. ${DEFAULT_API_PATHS[name as keyof typeof DEFAULT_API_PATHS] ?? '/o3/v1.0'}`,
    )
  return value.replace(/\/+$/, '')
}

/** One problem as it was found; several as one error naming each, with its field. */
function refusal(problems: Array<{ field: string; error: AppError }>): AppError {
  if (problems.length === 1) return problems[0]!.error
  return new AppError('INVALID_INPUT', {
    what: `The environment has ${problems.length} problems; nothing was saved.`,
    cause: problems.map((p) => p.error.what).join(' '),
    fix: 'Correct each field listed, then save again.',
    problems: problems.map((p) => ({ code: p.field, path: p.field, message: `${p.error.what} ${p.error.fix}` })),
  })
}

/**
 * Validates and normalises an environment; production allows private_key_jwt only. Every field is checked
 * before anything is refused: one save names every problem (each in `problems`, with its field), not the
 * first one only.
 */
export function normaliseEnvironment(input: EnvironmentInput, id: string, builtIn: boolean): EnvironmentDto {
  const problems: Array<{ field: string; error: AppError }> = []
  /** `check()`'s value, or undefined with its problem noted under `field`. */
  const field = <T>(name: string, check: () => T): T | undefined => {
    try {
      return check()
    } catch (err) {
      if (!(err instanceof AppError)) throw err
      problems.push({ field: name, error: err })
      return undefined
    }
  }
  field('name', () => {
    if (!input.name?.trim())
      throw invalid(
        'The environment has no name.',
        'A name tells environments apart in every list.',
        'Give it a name, e.g. "Bank sandbox".',
      )
  })
  const allowed =
    input.kind === 'production'
      ? input.allowedAuthMethods.filter((m) => m === 'private_key_jwt')
      : input.allowedAuthMethods
  field('allowedAuthMethods', () => {
    if (!allowed.length)
      throw invalid(
        'The environment allows no token endpoint auth method.',
        input.kind === 'production'
          ? 'Production accepts private_key_jwt only.'
          : 'A client must authenticate somehow.',
        'Allow private_key_jwt.',
      )
  })
  field('caBundlePem', () => {
    if (input.tlsVerification === 'exact-ca' && !input.caBundlePem?.includes('BEGIN CERTIFICATE'))
      throw invalid(
        'Exact-CA verification needs a CA bundle.',
        'No PEM certificate was given to trust.',
        'Paste the bank\'s CA bundle, or choose "off" (the bank\'s sandbox) or "system" (production).',
      )
  })
  const baseUrl = field('baseUrl', () => checkUrl('base URL', input.baseUrl))
  const authUrl = field('authUrl', () => checkUrl('auth URL', input.authUrl))
  const paths = {
    registration: field('apiPaths.registration', () => checkPath('registration', input.apiPaths.registration)),
    ais: field('apiPaths.ais', () => checkPath('ais', input.apiPaths.ais)),
    pis: field('apiPaths.pis', () => checkPath('pis', input.apiPaths.pis)),
    o3: input.apiPaths.o3 ? field('apiPaths.o3', () => checkPath('o3', input.apiPaths.o3!)) : undefined,
  }
  const maxBody =
    input.maxResponseBodyMiB !== undefined
      ? field('maxResponseBodyMiB', () => checkMaxBodyMiB(input.maxResponseBodyMiB))
      : undefined
  if (problems.length) throw refusal(problems)
  return {
    id,
    name: input.name.trim(),
    kind: input.kind,
    baseUrl: baseUrl!,
    authUrl: authUrl!,
    apiPaths: {
      registration: paths.registration!,
      ais: paths.ais!,
      pis: paths.pis!,
      ...(paths.o3 ? { o3: paths.o3 } : {}),
    },
    appScheme: input.appScheme.trim() || 'bankapp',
    tlsVerification: input.tlsVerification,
    ...(input.caBundlePem ? { caBundlePem: input.caBundlePem } : {}),
    ...(input.tppId ? { tppId: input.tppId } : {}),
    allowedAuthMethods: [...new Set(allowed)],
    builtIn,
    ...(maxBody !== undefined ? { maxResponseBodyMiB: maxBody } : {}),
  }
}

/** The largest response body setting: a whole number of MiB, 1 to 4096. */
function checkMaxBodyMiB(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 4096) {
    throw invalid(
      `The largest response body "${String(value)}" is not a number of MiB from 1 to 4096.`,
      'The console stops reading a body past this size, so one answer cannot exhaust its memory.',
      'Give a whole number of MiB, e.g. 50 (the default), or leave it empty.',
    )
  }
  return value
}

/** Environments: the embedded local sandbox (built in), the bank's sandbox and production (the user's). */
export class EnvironmentsService {
  constructor(
    private readonly store: SettingsStore,
    private readonly sandbox?: LocalSandboxPort,
  ) {}

  list(): EnvironmentDto[] {
    return this.store.get('environments')
  }

  get(id: string): EnvironmentDto {
    const env = this.list().find((e) => e.id === id)
    if (!env)
      throw new AppError('NOT_FOUND', {
        what: `No environment "${id}".`,
        cause: 'It was removed, or the id is misspelt.',
        fix: 'Pick an environment from the list (environments.list).',
      })
    return env
  }

  save(input: EnvironmentInput): EnvironmentDto {
    const all = this.list()
    const existing = input.id ? all.find((e) => e.id === input.id) : undefined
    if (input.id && !existing)
      throw new AppError('NOT_FOUND', {
        what: `No environment "${input.id}" to update.`,
        cause: 'It was removed.',
        fix: 'Save it without an id to create it again.',
      })
    if (
      existing?.builtIn &&
      (input.baseUrl !== existing.baseUrl || input.authUrl !== existing.authUrl || input.kind !== existing.kind)
    ) {
      throw invalid(
        "The local sandbox's addresses are managed by the console.",
        'They change each time the embedded sandbox starts.',
        'Edit only its name, paths, app scheme or TPP identity.',
      )
    }
    const env = normaliseEnvironment(input, existing?.id ?? randomUUID(), existing?.builtIn ?? false)
    this.store.set('environments', existing ? all.map((e) => (e.id === env.id ? env : e)) : [...all, env])
    return env
  }

  remove(id: string): void {
    const env = this.get(id)
    if (env.builtIn)
      throw invalid(
        'The local sandbox environment cannot be removed.',
        "It is the console's embedded default.",
        'Leave it; it costs nothing when not started.',
      )
    this.store.set(
      'environments',
      this.list().filter((e) => e.id !== id),
    )
  }

  /** Starts the embedded local sandbox if needed and returns its environment (created or refreshed). */
  async startLocalSandbox(): Promise<EnvironmentDto> {
    if (!this.sandbox)
      throw new AppError('NOT_FOUND', {
        what: 'No embedded local sandbox in this host.',
        cause: 'This console was started without one.',
        fix: 'Start the console with `ob-console serve` or `npm start`.',
      })
    const running = await this.sandbox.start()
    const existing = this.list().find((e) => e.id === LOCAL_SANDBOX_ENVIRONMENT_ID)
    const env: EnvironmentDto = {
      id: LOCAL_SANDBOX_ENVIRONMENT_ID,
      name: existing?.name ?? 'Local sandbox',
      kind: 'local-sandbox',
      baseUrl: running.baseUrl,
      authUrl: running.authUrl,
      apiPaths: existing?.apiPaths ?? { ...DEFAULT_API_PATHS, o3: '/o3/v1.0' },
      appScheme: existing?.appScheme ?? 'bankapp',
      tlsVerification: 'exact-ca',
      caBundlePem: running.caBundlePem,
      ...(existing?.tppId ? { tppId: existing.tppId } : {}),
      allowedAuthMethods: ['private_key_jwt', 'client_secret_basic'],
      builtIn: true,
    }
    const others = this.list().filter((e) => e.id !== LOCAL_SANDBOX_ENVIRONMENT_ID)
    this.store.set('environments', [env, ...others])
    return env
  }

  /** The test PSUs' logins of the running embedded sandbox: for the local-sandbox environment only. */
  testPsus(environmentId: string): Array<{ username: string; password: string; name: string }> {
    const env = this.get(environmentId)
    if (env.kind !== 'local-sandbox')
      throw invalid(
        `Environment ${env.name} has no test PSUs the console knows.`,
        "Only the embedded local sandbox's test PSUs are shown; other banks' logins are the user's own.",
        'Use the logins the bank gave you.',
      )
    const list = this.sandbox?.testPsus?.()
    if (!list)
      throw new AppError('NOT_FOUND', {
        what: "The local sandbox's test PSUs are not known here.",
        cause: 'The embedded sandbox is not running, or the sandbox runs in another process.',
        fix: 'Start the local sandbox from the console; otherwise see resources/local-sandbox/psus.json.',
      })
    return list.map(({ username, password, name }) => ({ username, password, name }))
  }

  /** The embedded sandbox's directory URL, when it runs. */
  localDirectory(): LocalDirectoryAddress | undefined {
    const current = this.sandbox?.current()
    return current ? { directoryUrl: current.directoryUrl } : undefined
  }
}
