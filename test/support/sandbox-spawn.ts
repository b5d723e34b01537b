/**
 * `ob-console sandbox … --json` in a child process, as a TPP developer or a supervisor runs it: started, read
 * until its address line, stopped by a signal. The integration tests, the deploy tests, the cluster harness
 * and the benchmarks all start their sandboxes through this one module.
 */
import { spawn, type ChildProcess } from 'node:child_process'

/** A started sandbox process: its address line (the first line of stdout, parsed) and its operator log. */
export interface SpawnedSandbox {
  child: ChildProcess
  /** The JSON address line: baseUrl, authUrl, directoryUrl, caBundlePath, dataDir, pid… */
  line: SandboxAddressLine
  /** What it has written to stderr so far (the last 64 KiB). */
  stderr(): string
}

export interface SandboxAddressLine {
  baseUrl: string
  authUrl: string
  directoryUrl: string
  caBundlePath: string
  dataDir: string
  pid: number
  [field: string]: unknown
}

const STDERR_KEPT = 64 * 1024

/**
 * Starts `node [nodeArgs] <bin> sandbox ARGS` (ARGS with --json) from `cwd` and resolves once it has printed
 * its address line; rejects with its stderr when it exits first or prints nothing within `timeoutMs`.
 */
export function spawnSandbox(
  args: string[],
  options: { cwd: string; bin: string; env?: NodeJS.ProcessEnv; nodeArgs?: string[]; timeoutMs?: number },
): Promise<SpawnedSandbox> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), options.bin, 'sandbox', ...args], {
    cwd: options.cwd,
    ...(options.env ? { env: options.env } : {}),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    stderr = (stderr + d).slice(-STDERR_KEPT)
  })
  const timeoutMs = options.timeoutMs ?? 30_000
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`the sandbox printed no address line within ${timeoutMs} ms; stderr: ${stderr}`))
    }, timeoutMs)
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      stdout += d
      const nl = stdout.indexOf('\n')
      if (nl < 0) return
      clearTimeout(timer)
      resolve({ child, line: JSON.parse(stdout.slice(0, nl)) as SandboxAddressLine, stderr: () => stderr })
    })
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`the sandbox exited (${signal ?? `code ${code}`}) before printing its addresses: ${stderr}`))
    })
  })
}

/** Resolves true once `child` has exited, false when `ms` pass first. */
export function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true)
  return new Promise((done) => {
    const timer = setTimeout(() => done(false), ms)
    child.once('exit', () => {
      clearTimeout(timer)
      done(true)
    })
  })
}

/**
 * Stops a sandbox process with `signal` (SIGTERM: a clean stop; SIGKILL: a crash) and waits for it to exit;
 * a SIGTERM not obeyed within `graceMs` is followed by SIGKILL.
 */
export async function stopSandboxProcess(
  child: ChildProcess | undefined,
  signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM',
  graceMs = 15_000,
): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return
  child.kill(signal)
  if (!(await waitForExit(child, graceMs))) {
    child.kill('SIGKILL')
    await waitForExit(child, 5_000)
  }
}
