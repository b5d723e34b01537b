import { existsSync, statSync } from 'node:fs'
import type { ParseArgsConfig } from 'node:util'
import type { EnvironmentDto } from '../contract/environments.ts'
import type { AppErrorDto } from '../contract/errors.ts'
import { AppError } from '../core/app-error.ts'
import { importEnvironmentFile, parseEnvironmentFile } from '../services/environment-file.ts'
import { createConsoleRuntime, type ConsoleRuntime } from './console-runtime.ts'
import { reportError, UsageError } from './cli-support.ts'
import { conformanceReport, type ConformanceEntry } from './conformance-report.ts'
import { inputFile, parseFlags, readInput, writableDir } from './flags.ts'
import { COMMON_USAGE } from './usage.ts'
import { writeErr, writeErrLine, writeJsonOut, writeOut } from '../plumbing/terminal-out.ts'

export { COMMON_USAGE }

/** The flags every environment-bound command takes. */
export const COMMON_OPTIONS = {
  env: { type: 'string' },
  client: { type: 'string' },
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  strict: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

/** The --json value of the running command, held until its exchanges are checked (`output`, `withRuntime`). */
let held: { value: unknown } | undefined
let holding = false

function writeHeld(entries: ConformanceEntry[]): void {
  if (!held) return
  const v = held.value
  held = undefined
  const withLens =
    entries.length && v !== null && typeof v === 'object' && !Array.isArray(v)
      ? { ...(v as Record<string, unknown>), conformance: entries }
      : v
  writeJsonOut(withLens)
}

export function unwrap<T>(result: { ok: true; value: T } | { ok: false; error: AppErrorDto }): T {
  if (result.ok) return result.value
  throw new AppError(result.error.code, result.error)
}

/**
 * Parses a command line strictly and checks the common flags (`--env` file, `--data-dir`) before any work; a bad
 * one is a UsageError (exit 2) or a coded path error (FILE_NOT_FOUND, NOT_A_FILE, NOT_WRITABLE).
 */
export function parseCommand<O extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  options: O,
  maxPositionals = Number.POSITIVE_INFINITY,
) {
  const parsed = parseFlags(argv, { ...COMMON_OPTIONS, ...options }, maxPositionals)
  checkCommonFlags(parsed.values as { env?: string; 'data-dir'?: string })
  return parsed
}

/** `--env` as a file (named so, or a path) exists and is a file; `--data-dir` is a folder that can be written. */
export function checkCommonFlags(values: { env?: string; 'data-dir'?: string }): void {
  const env = values.env
  // An environment file is read and checked now, so that a bad one opens no store.
  if (env !== undefined && env !== 'local' && (looksLikePath(env) || existsSync(env)))
    parseEnvironmentFile(readInput(inputFile('env', env), 'env'), env)
  if (values['data-dir'] !== undefined) writableDir('data-dir', values['data-dir'])
}

function looksLikePath(env: string): boolean {
  return env.endsWith('.json') || /[\\/]/.test(env) || env.startsWith('.')
}

/** Whether `--env` names a file (a path that exists, or ends in .json). */
export function isEnvironmentFile(env: string): boolean {
  return env.endsWith('.json') || (existsSync(env) && statSync(env).isFile())
}

export interface CommandContext {
  rt: ConsoleRuntime
  env: EnvironmentDto
  /** The client a file named, when `--env` was a file that names one. */
  fileClientId?: string
  say(line: string): void
  json: boolean
}

/**
 * Opens the console store (`--data-dir`, else the user's data directory), runs `body` with the runtime,
 * and stops everything. Returns the exit code.
 */
type RuntimeValues = { 'data-dir'?: string; json?: boolean; 'loopback-port'?: string; strict?: boolean }

type RuntimeBody = (rt: ConsoleRuntime, say: (line: string) => void) => Promise<number>

export async function withRuntime(values: RuntimeValues, usage: string, body: RuntimeBody): Promise<number> {
  const json = !!values.json
  const say = (line: string) => (json ? writeErr : writeOut)(line + '\n')
  let rt: ConsoleRuntime | undefined
  let stopLens: (() => void) | undefined
  try {
    rt = await createConsoleRuntime({
      host: 'web',
      ...(values['data-dir'] ? { dataDir: values['data-dir'] } : {}),
      loopbackPort: values['loopback-port'] !== undefined ? Number(values['loopback-port']) : 0,
      log: writeErrLine,
      lensOnThisThread: true,
    })
    // Every answer of the command is checked by the bank-conformance lens; its violations follow the output.
    const lens = conformanceReport(rt, { strict: !!values.strict, say })
    stopLens = lens.stop
    holding = json
    const code = await body(rt, say)
    const checked = await lens.finish()
    writeHeld(checked.entries)
    return lens.exitCode(code, checked.violations)
  } catch (err) {
    writeHeld([])
    return reportError(err, usage)
  } finally {
    holding = false
    stopLens?.()
    await rt?.stop()
  }
}

/** `withRuntime`, with `--env` resolved first (starting the embedded sandbox for `local`, importing a file). */
export async function withEnvironment(
  values: { env?: string; 'data-dir'?: string; json?: boolean; 'loopback-port'?: string },
  usage: string,
  body: (c: CommandContext) => Promise<number>,
): Promise<number> {
  if (!values.env)
    return reportError(
      new UsageError('--env is required (local, the name of a saved environment, or an environment file)'),
      usage,
    )
  return withRuntime(values, usage, async (rt, say) => {
    const resolved = await resolveEnvironment(rt, values.env!, say)
    return body({
      rt,
      env: resolved.env,
      ...(resolved.clientId ? { fileClientId: resolved.clientId } : {}),
      say,
      json: !!values.json,
    })
  })
}

/** `local`, a saved environment's id or name, or an environment file. */
export async function resolveEnvironment(
  rt: ConsoleRuntime,
  env: string,
  say: (line: string) => void,
): Promise<{ env: EnvironmentDto; clientId?: string }> {
  if (env === 'local') {
    const e = unwrap(await rt.handlers['environments.startLocalSandbox']())
    say(`local sandbox: ${e.baseUrl} (auth ${e.authUrl})`)
    return { env: e }
  }
  const saved = rt.services.environments.list().find((e) => e.id === env || e.name === env)
  if (saved && !isEnvironmentFile(env)) return { env: saved }
  if (!isEnvironmentFile(env)) {
    throw new UsageError(
      `no environment "${env}" (saved: ${
        rt.services.environments
          .list()
          .map((e) => e.name)
          .join(', ') || 'none'
      }); give local, a saved name, or the path of an environment file`,
    )
  }
  const imported = await importEnvironmentFile(env, {
    environments: rt.services.environments,
    tpps: rt.services.tpps,
    registration: rt.services.registration,
  })
  if (imported.clientId && !currentClient(rt, imported.environment.id))
    setCurrentClient(rt, imported.environment.id, imported.clientId)
  say(`environment ${imported.environment.name} (from ${env})`)
  return { env: imported.environment, ...(imported.clientId ? { clientId: imported.clientId } : {}) }
}

export function currentClient(rt: ConsoleRuntime, environmentId: string): string | undefined {
  const id = rt.services.state.read().currentClients[environmentId]
  return id && rt.services.registration.list(environmentId).some((c) => c.clientId === id) ? id : undefined
}

export function setCurrentClient(rt: ConsoleRuntime, environmentId: string, clientId: string | undefined): void {
  rt.services.state.update((d) => {
    if (clientId) d.currentClients[environmentId] = clientId
    else delete d.currentClients[environmentId]
  })
}

/** `--client`, else the environment's current client, else a clear error. */
export function resolveClient(c: CommandContext, flag: string | undefined): string {
  if (flag) return flag
  const current = currentClient(c.rt, c.env.id) ?? c.fileClientId
  if (current) return current
  const known = c.rt.services.registration.list(c.env.id).map((x) => x.clientId)
  throw new UsageError(
    `--client is required: no client is marked current in ${c.env.name}${known.length ? ` (registered: ${known.join(', ')})` : ' (none registered in this data directory: run ob-console onboard, or name the client in the environment file)'}`,
  )
}

/**
 * Writes the result: JSON on stdout with --json, else the text. Within `withRuntime` the JSON waits for the
 * run's conformance checks and carries them as `conformance` (when any answer was checked). Both through the
 * terminal writers: control characters from outside values are escaped (in JSON as `\u001b`, in text as `\x1b`).
 */
export function output(c: { json: boolean }, value: unknown, text: string): void {
  if (c.json && holding) {
    held = { value }
    return
  }
  if (c.json) writeJsonOut(value)
  else writeOut(text.endsWith('\n') ? text : text + '\n')
}
