// The command line's flags, checked before any work: every command parses with `parseFlags` and checks each value
// with the validators here, so that a bad value is refused at once (no store opened, no sandbox started), naming
// the flag and the fix. Files named on the command line are read and checked here too.
import { closeSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs'
import { isIP } from 'node:net'
import { dirname, join, resolve } from 'node:path'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { AIS_PERMISSIONS, checkPermissions } from '../contract/ais-permissions.ts'
import { AppError } from '../core/app-error.ts'
import { isoDurationSeconds } from '../plumbing/iso-duration.ts'
import { UsageError } from './cli-support.ts'

type Options = NonNullable<ParseArgsConfig['options']>

/** Flags whose value may be empty (an empty passphrase is a passphrase). */
const MAY_BE_EMPTY = new Set(['passphrase'])

/**
 * `--days -5`: a value starting with a dash and a digit, after a flag that takes a value, is that value (a
 * negative number, refused by the flag's range check with a clear sentence), not an unknown flag.
 */
function joinNumberValues(argv: string[], options: Options): string[] {
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (a === '--') {
      out.push(...argv.slice(i))
      break
    }
    const name = a.startsWith('--') && !a.includes('=') ? a.slice(2) : undefined
    const next = argv[i + 1]
    if (name && options[name]?.type === 'string' && next !== undefined && /^-\.?\d/.test(next)) {
      out.push(`${a}=${next}`)
      i++
    } else out.push(a)
  }
  return out
}

/** parseArgs' own errors, said as the other usage errors are. */
function usageFromParseArgs(err: unknown): UsageError {
  const message = (err as Error).message.split('\n')[0]!
  const missing = /^Option '(-\w, )?(--[\w-]+)[^']*' argument missing/.exec(message)
  if (missing) return new UsageError(`${missing[2]} needs a value`, `Give the value after ${missing[2]}.`)
  const ambiguous = /^Option '(-\w, )?(--[\w-]+)[^']*' argument is ambiguous/.exec(message)
  if (ambiguous)
    return new UsageError(
      `${ambiguous[2]} needs a value, and the next argument is a flag`,
      `Give the value after ${ambiguous[2]}; a value starting with "-" is written ${ambiguous[2]}=-VALUE.`,
    )
  return new UsageError(message.replace(/\. To specify a positional argument.*$/, ''))
}

/**
 * Parses a command line strictly: unknown flags, a flag given twice (other than the repeatable ones), an empty
 * value (`--data-dir ""` would mean the current folder) and more than `maxPositionals` arguments are usage errors.
 */
export function parseFlags<O extends Options>(argv: string[], options: O, maxPositionals = 0) {
  let parsed
  try {
    parsed = parseArgs({
      args: joinNumberValues(argv, options),
      options,
      strict: true,
      allowPositionals: true,
      tokens: true,
    })
  } catch (err) {
    throw usageFromParseArgs(err)
  }
  const given = new Map<string, string[]>()
  for (const t of parsed.tokens) {
    if (t.kind !== 'option') continue
    const values = [...(given.get(t.name) ?? []), t.value ?? '']
    given.set(t.name, values)
    if (values.length > 1 && !options[t.name]?.multiple)
      throw new UsageError(
        `--${t.name} is given ${values.length} times${options[t.name]?.type === 'string' ? ` (${values.map((v) => JSON.stringify(v)).join(', ')})` : ''}`,
        `Give --${t.name} once.`,
      )
    if (t.value !== undefined && t.value.trim() === '' && !MAY_BE_EMPTY.has(t.name))
      throw new UsageError(
        `--${t.name} is empty`,
        `Give --${t.name} a value, or leave the flag out (an empty path would mean the current folder).`,
      )
  }
  const extra = parsed.positionals[maxPositionals]
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`)
  const empty = parsed.positionals.find((p) => p.trim() === '')
  if (empty !== undefined) throw new UsageError('an argument is empty', 'Give the file or value the command takes.')
  return { values: parsed.values, positionals: parsed.positionals }
}

/** Whether a text holds control bytes other than tab, newline and carriage return (binary, not text). */
export function isBinary(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 127) return true
  }
  return false
}

/** The text with its control bytes as spaces (text from outside, before it reaches a terminal). */
export function withoutControls(text: string): string {
  return [...text].map((ch) => (isBinary(ch) || ch === '\n' || ch === '\r' || ch === '\t' ? ' ' : ch)).join('')
}

/** A whole number from `min` to `max`. */
export function intFlag(flag: string, text: string, min: number, max: number, what = 'a whole number'): number {
  const n = Number(text)
  if (!/^-?\d{1,12}$/.test(text) || n < min || n > max)
    throw new UsageError(
      `--${flag} must be ${what} from ${min} to ${max}, got "${text}"`,
      `Give --${flag} ${what} from ${min} to ${max}.`,
    )
  return n
}

/** A TCP port; `max` is lower where the next ports are taken too. */
export function portFlag(flag: string, text: string, max = 65535): number {
  return intFlag(flag, text, 0, max, 'a port number')
}

/** An IPv4 or IPv6 address. */
export function ipFlag(flag: string, text: string): string {
  if (!isIP(text))
    throw new UsageError(
      `--${flag} must be an IP address (IPv4 such as 203.0.113.7, or IPv6), got "${text}"`,
      `Give --${flag} the PSU's IP address (for the local sandbox: 127.0.0.1).`,
    )
  return text
}

/** An Open Banking amount: up to 13 digits, a point and up to 5 decimals, more than zero. */
export function amountFlag(flag: string, text: string): string {
  if (!/^\d{1,13}(\.\d{1,5})?$/.test(text) || Number(text) <= 0)
    throw new UsageError(
      `--${flag} must be an amount more than zero such as 10.00 (digits, a point, up to 5 decimals), got "${text}"`,
      `Give --${flag} an amount such as 10.00.`,
    )
  return text
}

/** AIS permission codes, comma-separated, checked against the v4.0 list and rules. */
export function permissionsFlag(flag: string, text: string): string[] {
  const list = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
  const known = new Set(AIS_PERMISSIONS.map((p) => p.code))
  const unknown = list.filter((p) => !known.has(p))
  if (unknown.length) {
    const near = unknown
      .map((u) => AIS_PERMISSIONS.find((p) => p.code.toLowerCase() === u.toLowerCase())?.code)
      .filter(Boolean)
    throw new UsageError(
      `--${flag}: ${unknown.map((u) => `"${u}"`).join(', ')} ${unknown.length === 1 ? 'is not a' : 'are not'} v4.0 permission code${unknown.length === 1 ? '' : 's'}${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}`,
      `Give codes of the v4.0 list, comma-separated: ${AIS_PERMISSIONS.map((p) => p.code).join(', ')}.`,
    )
  }
  const failed = checkPermissions(list).filter((c) => !c.pass)
  if (failed.length)
    throw new UsageError(
      `--${flag} ${text}: ${failed.map((c) => c.name.toLowerCase()).join('; ')}`,
      failed.map((c) => c.hint ?? '').join(' '),
      'The bank refuses a consent whose permissions break the v4.0 rules.',
    )
  return list
}

/** One of a few words. */
export function choiceFlag<T extends string>(flag: string, text: string, choices: readonly T[]): T {
  if (!(choices as readonly string[]).includes(text))
    throw new UsageError(
      `--${flag} must be ${choices.slice(0, -1).join(', ')}${choices.length > 1 ? ' or ' : ''}${choices.at(-1)}, got "${text}"`,
      `Give --${flag} one of: ${choices.join(', ')}.`,
    )
  return text as T
}

/** A space-separated list of scopes, each one of `allowed`. */
export function scopeFlag(flag: string, text: string, allowed: readonly string[]): string {
  const bad = text.split(/\s+/).filter((s) => s && !allowed.includes(s))
  if (bad.length || !text.trim())
    throw new UsageError(
      `--${flag}: ${bad.map((s) => `"${s}"`).join(', ')} ${bad.length === 1 ? 'is not a scope' : 'are not scopes'} the bank grants (${allowed.join(', ')})`,
      `Give --${flag} ${allowed.join(', ')}, or several separated by spaces ("accounts payments").`,
      'The bank would refuse the request with invalid_scope.',
    )
  return text
}

/** An https URL (`what` names what it points at, for the fix). */
export function httpsUrlFlag(flag: string, text: string, fix: string): URL {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new UsageError(`--${flag} must be an https URL, got "${text}"`, fix)
  }
  if (url.protocol !== 'https:')
    throw new UsageError(
      `--${flag} must be an https URL, got ${url.protocol.replace(':', '')}: "${text}"`,
      fix,
      url.protocol === 'http:'
        ? 'Keys fetched over plain http can be replaced on the way, so a signature checked with them proves nothing.'
        : undefined,
    )
  return url
}

function stat(path: string): Stats | undefined {
  try {
    return statSync(path)
  } catch {
    return undefined
  }
}

function label(flag: string | undefined, path: string): string {
  return flag ? `--${flag} ${path}` : path
}

/** A file to read: it exists and is a file. Returns the absolute path. */
export function inputFile(flag: string | undefined, path: string): string {
  const abs = resolve(path)
  const s = stat(abs)
  if (!s)
    throw new AppError('FILE_NOT_FOUND', {
      what: `${label(flag, path)}: the file does not exist.`,
      cause: `Nothing is at ${abs}.`,
      fix: `Check the path (a relative path starts from ${process.cwd()}).`,
    })
  if (!s.isFile())
    throw new AppError('NOT_A_FILE', {
      what: `${label(flag, path)} is a ${s.isDirectory() ? 'folder' : 'special file'}, not a file.`,
      cause: `${abs} is not a regular file.`,
      fix: 'Give the path of the file itself.',
    })
  return abs
}

/** The largest file or standard input read as a token, key or certificate (1 MiB): a bigger one is a mistake. */
export const MAX_INPUT_BYTES = 1024 * 1024

function tooLarge(flag: string | undefined, path: string, bytes: number, max: number): AppError {
  return new AppError('INVALID_INPUT', {
    what: `${path === '-' ? 'Standard input' : label(flag, path)} is too large: ${(bytes / 1024 / 1024).toFixed(1)} MiB.`,
    cause: `The console reads at most ${max / 1024} KiB here; tokens, keys and certificates are a few KiB.`,
    fix: 'Give the token, key or certificate itself, not a log or a dump that holds it.',
  })
}

/** A file's bytes (or standard input's for "-"), at most `max`, with coded errors naming the path. */
export function readInputBytes(path: string, flag?: string, max = MAX_INPUT_BYTES): Buffer {
  if (path === '-') {
    const chunks: Buffer[] = []
    const chunk = Buffer.alloc(65536)
    let total = 0
    for (;;) {
      let n: number
      try {
        n = readSync(0, chunk, 0, chunk.length, null)
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EAGAIN') continue
        if ((err as NodeJS.ErrnoException).code === 'EOF') break
        throw err
      }
      if (n === 0) break
      total += n
      if (total > max) throw tooLarge(flag, path, total, max)
      chunks.push(Buffer.from(chunk.subarray(0, n)))
    }
    return Buffer.concat(chunks)
  }
  const abs = inputFile(flag, path)
  const size = statSync(abs).size
  if (size > max) throw tooLarge(flag, path, size, max)
  let fd: number
  try {
    fd = openSync(abs, 'r')
  } catch (err) {
    throw new AppError('INVALID_INPUT', {
      what: `${label(flag, path)} cannot be read.`,
      cause: `${(err as NodeJS.ErrnoException).code === 'EACCES' ? 'This user may not read it' : (err as Error).message} (${abs}).`,
      fix: 'Give a file this user can read.',
    })
  }
  try {
    return readFileSync(fd)
  } finally {
    closeSync(fd)
  }
}

/** A file's text (or standard input's for "-"); see `readInputBytes`. */
export function readInput(path: string, flag?: string, max = MAX_INPUT_BYTES): string {
  return readInputBytes(path, flag, max).toString('utf8')
}

/** Whether this user can create files in the folder `dir` (tried, not guessed: root, read-only mounts, /sys). */
function canWriteIn(dir: string): boolean {
  const probe = join(dir, `.ob-console-probe-${process.pid}-${Date.now()}`)
  try {
    writeFileSync(probe, '', { flag: 'wx' })
    rmSync(probe, { force: true })
    return true
  } catch {
    return false
  }
}

/** The nearest folder of `abs` (itself included) that exists. */
function nearestExisting(abs: string): { path: string; stats: Stats } {
  let p = abs
  for (;;) {
    const s = stat(p)
    if (s) return { path: p, stats: s }
    const up = dirname(p)
    if (up === p) return { path: p, stats: statSync(p) }
    p = up
  }
}

/**
 * A folder the command writes into (created when missing): `--data-dir`, `--out DIR`. Checked before any work:
 * when it exists it is a folder this user can write; when it does not, its nearest existing parent is.
 */
export function writableDir(flag: string, path: string): string {
  const abs = resolve(path)
  const near = nearestExisting(abs)
  if (!near.stats.isDirectory())
    throw new AppError('NOT_A_FILE', {
      what: `--${flag} ${abs} ${near.path === abs ? 'is a file, not a directory' : `cannot be made: ${near.path} is a file, not a directory`}.`,
      cause: `--${flag} names a folder the console writes into.`,
      fix: `Give --${flag} a folder (it is created when missing).`,
    })
  if (!canWriteIn(near.path))
    throw new AppError('NOT_WRITABLE', {
      what: `--${flag} ${abs}: ${near.path === abs ? 'the folder is not writable' : `${near.path} is not writable, so the folder cannot be made there`}.`,
      cause: 'This user may not create files there (permissions, or a read-only file system).',
      fix: `Give --${flag} a folder you can write, e.g. under ${process.env.HOME ?? 'your home folder'}.`,
    })
  return abs
}

/** A file the command writes at the end (`--har`, `--out FILE`): checked before the run, not after it. */
export function outputFile(flag: string, path: string): string {
  const abs = resolve(path)
  const s = stat(abs)
  if (s?.isDirectory())
    throw new AppError('NOT_A_FILE', {
      what: `--${flag} ${abs} is a folder, not a file.`,
      cause: `--${flag} names the file to write.`,
      fix: `Give --${flag} a file name, e.g. ${join(path, `run.${flag === 'har' ? 'har' : 'json'}`)}.`,
    })
  const dir = dirname(abs)
  const d = stat(dir)
  if (!d)
    throw new AppError('FILE_NOT_FOUND', {
      what: `--${flag} ${abs}: the folder ${dir} does not exist.`,
      cause: 'The console writes the file, but does not make folders for it.',
      fix: `Create the folder first (mkdir -p ${dir}), or give another path.`,
    })
  if (!d.isDirectory())
    throw new AppError('NOT_A_FILE', {
      what: `--${flag} ${abs}: ${dir} is a file, not a folder.`,
      cause: `--${flag} names a file inside a folder.`,
      fix: 'Give a path inside an existing folder.',
    })
  if (!canWriteIn(dir))
    throw new AppError('NOT_WRITABLE', {
      what: `--${flag} ${abs}: the folder ${dir} is not writable.`,
      cause: 'This user may not create files there (permissions, or a read-only file system).',
      fix: 'Give a path in a folder you can write.',
    })
  return abs
}

/** `--consent-expiry DURATION`: an ISO 8601 duration (`P1D`, `PT23H`; no years or months), in seconds, at least 1. */
export function consentExpiryFlag(text: string): number {
  const seconds = isoDurationSeconds(text)
  if (seconds === undefined || seconds < 1)
    throw new UsageError(
      `--consent-expiry must be an ISO 8601 duration of at least a second, such as P1D or PT23H; got "${text}"`,
      'Give how long after now (on the bank’s clock) the consent expires, e.g. --consent-expiry P1D.',
    )
  return seconds
}
