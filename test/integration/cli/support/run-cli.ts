/**
 * Runs the built command line (`bin/ob-console.js`, out/cli) as a user would: a new process in the
 * repository, its output collected, killed when it runs over its time. The tests that spawn the CLI share it.
 */
import { spawn } from 'node:child_process'
import { join, resolve } from 'node:path'

export const REPO = resolve(import.meta.dirname, '../../../..')
export const BIN = join(REPO, 'bin/ob-console.js')

export interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

export interface CliRunOptions {
  /** Added to this process's environment (e.g. `OB_CONSOLE_DATA_DIR`). */
  env?: NodeJS.ProcessEnv
  /** Written to its stdin, which is then closed (closed at once without it). */
  stdin?: string
  /** Killed (SIGKILL) after this long; the run then ends with the output so far. Default 120 s. */
  timeoutMs?: number
  /** The working directory (default: the repository). */
  cwd?: string
}

/** `ob-console ...args`, to its end. */
export function runCli(args: string[], options: CliRunOptions = {}): Promise<CliRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? REPO,
      env: { ...process.env, ...options.env },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000)
    child.on('error', fail)
    child.on('close', (code) => {
      clearTimeout(timer)
      done({ code, stdout, stderr })
    })
    child.stdin.end(options.stdin ?? '')
  })
}

/** The last stdout line as JSON (every command's `--json` result); says what was printed when it is not. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lastJson(r: CliRun): Record<string, any> {
  try {
    return JSON.parse(r.stdout.trim().split('\n').pop() ?? '')
  } catch {
    throw new Error(
      `no JSON on stdout (exit ${r.code}); stdout: ${r.stdout.slice(-500)}; stderr: ${r.stderr.slice(-1500)}`,
    )
  }
}
