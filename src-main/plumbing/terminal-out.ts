import { TERMINAL_LINE_LIMIT, terminalJson, terminalText } from './terminal-text.ts'

/**
 * The one way the console, the web host and the local sandbox write to stdout and stderr.
 *
 * Human-readable text goes through {@link terminalText} (control characters escaped, long lines cut); JSON
 * lines through {@link terminalJson} (still valid JSON, nothing cut). A closed pipe (EPIPE: the reader of our
 * output went away) or any other write error is ignored: a server keeps serving with nobody reading its log.
 */

/** Where the writers write: `process.stdout`/`process.stderr`, or what a test puts there. */
export interface TerminalStream {
  write(text: string): unknown
  on?(event: 'error', listener: (err: Error) => void): unknown
}

let out: TerminalStream = process.stdout
let err: TerminalStream = process.stderr
const guarded = new WeakSet<object>()

/** Ignores write errors on `stream` from now on (a closed pipe would otherwise end the process). */
function guard(stream: TerminalStream): void {
  if (guarded.has(stream) || !stream.on) return
  guarded.add(stream)
  stream.on('error', () => {})
}

/** Ignores write errors (EPIPE…) on stdout and stderr: call once when a process starts. */
export function guardStdio(): void {
  guard(process.stdout)
  guard(process.stderr)
}

function write(stream: TerminalStream, text: string): void {
  guard(stream)
  try {
    stream.write(text)
  } catch {
    // A stream destroyed after a closed pipe may throw on write: the output is lost, the process goes on.
  }
}

/**
 * Writes human-readable text on stdout, control characters escaped and lines longer than `limit` cut (a
 * larger limit only for a line the user must copy whole, such as an authorisation URL).
 */
export function writeOut(text: string, limit = TERMINAL_LINE_LIMIT): void {
  write(out, terminalText(text, limit))
}

/** Writes human-readable text on stderr, control characters escaped and lines longer than `limit` cut. */
export function writeErr(text: string, limit = TERMINAL_LINE_LIMIT): void {
  write(err, terminalText(text, limit))
}

/** Writes one line of text on stderr (the newline added): a log line. */
export function writeErrLine(line: string): void {
  write(err, terminalText(line) + '\n')
}

/** The limit of a line the user must copy whole (an authorisation URL with its request object). */
export const URL_LINE_LIMIT = 16_384

/** Writes `value` as JSON on stdout (valid JSON, terminal-safe): one line, or indented by `space`. */
export function writeJsonOut(value: unknown, space?: number): void {
  write(out, terminalJson(value, space) + '\n')
}

/**
 * Writes `value` as one JSON line on stderr (valid JSON, terminal-safe): a structured log entry. Strings
 * longer than {@link TERMINAL_LINE_LIMIT} are cut.
 */
export function writeJsonErr(value: unknown): void {
  write(err, terminalJson(value, undefined, TERMINAL_LINE_LIMIT) + '\n')
}

/**
 * Sends what the writers write to `streams` until the returned function is called (tests capture output
 * with it).
 */
export function redirectTerminal(streams: { out: TerminalStream; err: TerminalStream }): () => void {
  const saved = { out, err }
  out = streams.out
  err = streams.err
  return () => {
    out = saved.out
    err = saved.err
  }
}
