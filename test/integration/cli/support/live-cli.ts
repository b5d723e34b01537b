/**
 * The built command line as a live process: its output read while it runs (to follow a URL it prints, to
 * signal it while it waits), its standard input open for a pasted line. Each run gets a temporary TMPDIR of
 * its own, so a test can list what the command left there.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { BIN, REPO } from './run-cli.ts'

export interface LiveCli {
  child: ChildProcessWithoutNullStreams
  /** The temporary folder the command takes as TMPDIR. */
  tmp: string
  stdout(): string
  stderr(): string
  /** Resolves with the first match of `pattern` in stdout (or stderr), rejects when the process ends first or after `ms`. */
  waitFor(pattern: RegExp, stream?: 'stdout' | 'stderr', ms?: number): Promise<RegExpExecArray>
  /** The exit code, or the signal's name when it was killed by one. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** The CA bundle of the throwaway sandbox the command started (in its TMPDIR). */
  sandboxCa(): string
}

export function startCli(args: string[], env: NodeJS.ProcessEnv = {}): LiveCli {
  const tmp = mkdtempSync(join(tmpdir(), 'ob-cli-live-'))
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: REPO,
    env: { ...process.env, TMPDIR: tmp, OB_CONSOLE_DATA_DIR: join(tmp, 'never-used'), ...env },
  })
  const out = { stdout: '', stderr: '' }
  const waiters: Array<() => void> = []
  const notify = () => waiters.splice(0).forEach((w) => w())
  child.stdout.setEncoding('utf8').on('data', (d: string) => ((out.stdout += d), notify()))
  child.stderr.setEncoding('utf8').on('data', (d: string) => ((out.stderr += d), notify()))
  let ended = false
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => {
      ended = true
      notify()
      resolve({ code, signal })
    }),
  )
  const killer = setTimeout(() => child.kill('SIGKILL'), 240_000)
  void exited.then(() => clearTimeout(killer))
  return {
    child,
    tmp,
    stdout: () => out.stdout,
    stderr: () => out.stderr,
    exited,
    waitFor(pattern, stream = 'stdout', ms = 120_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => fail('timed out'), ms)
        const fail = (why: string) => {
          clearTimeout(timer)
          reject(
            new Error(`${why} waiting for ${pattern} on ${stream}\nstdout:\n${out.stdout}\nstderr:\n${out.stderr}`),
          )
        }
        const check = () => {
          const m = pattern.exec(out[stream])
          if (m) {
            clearTimeout(timer)
            resolve(m)
          } else if (ended) fail('the command ended')
          else waiters.push(check)
        }
        check()
      })
    },
    sandboxCa() {
      const dir = readdirSync(tmp).find((d) => d.startsWith('ob-console-'))
      if (!dir) throw new Error(`no throwaway data directory in ${tmp}: ${readdirSync(tmp).join(', ')}`)
      return readFileSync(join(tmp, dir, 'local-sandbox', 'pki', 'ca-bundle.pem'), 'utf8')
    },
  }
}

/**
 * `live(args)`: a command started with `startCli`, killed and its temporary folder removed after each test of
 * the file that calls this (the runs a test leaves behind never outlive it).
 */
export function liveRunsOfEachTest(): (args: string[]) => LiveCli {
  const runs: LiveCli[] = []
  afterEach(() => {
    for (const r of runs.splice(0)) {
      r.child.kill('SIGKILL')
      rmSync(r.tmp, { recursive: true, force: true })
    }
  })
  return (args) => {
    const r = startCli(args)
    runs.push(r)
    return r
  }
}
