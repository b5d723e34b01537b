import { isAppError } from './app-error.ts'
import { redactJson } from './redact.ts'
import { redactText } from './redact-text.ts'
import { writeJsonErr } from '../plumbing/terminal-out.ts'

export type LogLevel = 'debug' | 'info' | 'warn' | 'error'
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 }

/** One log line as the sink receives it: already redacted. */
export interface LogEntry {
  time: string
  level: LogLevel
  msg: string
  [field: string]: unknown
}

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void
  info(msg: string, fields?: Record<string, unknown>): void
  warn(msg: string, fields?: Record<string, unknown>): void
  error(msg: string, fields?: Record<string, unknown>): void
  /** A logger that adds `bindings` to every entry (e.g. `{ layer: 'http', environmentId }`). */
  child(bindings: Record<string, unknown>): Logger
}

export interface LoggerOptions {
  /**
   * Where entries go; default: one JSON line each on stderr, through the terminal writer (control characters
   * escaped as JSON escapes, C1 included; strings over 2,000 characters cut).
   */
  sink?: (entry: LogEntry) => void
  /** Entries below this level are dropped. Default `info`, or `$OB_CONSOLE_LOG_LEVEL`. */
  level?: LogLevel
  now?: () => Date
}

function serialiseError(err: unknown): unknown {
  if (isAppError(err))
    return {
      code: err.code,
      what: err.what,
      cause: err.cause,
      fix: err.fix,
      ...(err.details ? { details: err.details } : {}),
    }
  if (err instanceof Error)
    return {
      name: err.name,
      message: err.message,
      ...((err as { code?: unknown }).code ? { code: (err as { code?: unknown }).code } : {}),
      stack: err.stack,
    }
  return err
}

function redactFields(fields: Record<string, unknown>): Record<string, unknown> {
  const prepared: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(fields)) prepared[k] = v instanceof Error ? serialiseError(v) : v
  // Secret members by name, then secrets inside the remaining strings (PEM keys, Bearer credentials...).
  return redactStrings(redactJson(prepared)) as Record<string, unknown>
}

function redactStrings(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value)
  if (typeof value === 'bigint') return value.toString()
  if (Array.isArray(value)) return value.map(redactStrings)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactStrings(v)]))
}

/**
 * A structured logger that never writes secrets: authorization headers, client secrets, client
 * assertions, authorisation codes, tokens and private keys are redacted from the message and from
 * every field before the sink sees them.
 *
 * @example const log = createLogger({ level: 'debug' }).child({ layer: 'http' })
 *          log.info('token request', { body: 'grant_type=client_credentials&client_assertion=eyJ...' })
 */
export function createLogger(options: LoggerOptions = {}, bindings: Record<string, unknown> = {}): Logger {
  const envLevel = process.env.OB_CONSOLE_LOG_LEVEL as LogLevel | undefined
  const level: LogLevel = options.level ?? (envLevel && envLevel in ORDER ? envLevel : 'info')
  const sink = options.sink ?? writeJsonErr
  const now = options.now ?? (() => new Date())
  const write = (lvl: LogLevel, msg: string, fields: Record<string, unknown> = {}) => {
    if (ORDER[lvl] < ORDER[level]) return
    const safe = redactFields({ ...bindings, ...fields })
    sink({ ...safe, time: now().toISOString(), level: lvl, msg: redactText(msg) })
  }
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (more) => createLogger({ ...options, level }, { ...bindings, ...more }),
  }
}

/** A logger that drops everything (tests, and callers that did not pass one). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silentLogger }
