import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const REPO = resolve(import.meta.dirname, '../../../..')
const BIN = join(REPO, 'bin/ob-console.js')

/** A sandbox process (the built command line) and the addresses it printed. */
export interface Instance {
  child: ChildProcess
  baseUrl: string
  authUrl: string
  directoryUrl: string
  caBundlePath: string
  /** What it has written to stderr so far (its operator log). */
  stderr(): string
}

/**
 * The admin token every instance is started with (`--admin-token-file`): a sandbox on a PostgreSQL store
 * guards its `/admin/*` endpoints and `POST /tpps` with one.
 */
export const ADMIN_TOKEN = randomBytes(24).toString('base64url')
const ADMIN_TOKEN_FILE = join(mkdtempSync(join(tmpdir(), 'ob-instances-')), 'admin-token')
writeFileSync(ADMIN_TOKEN_FILE, `${ADMIN_TOKEN}\n`, { mode: 0o600 })

/** The header the instances' admin endpoints and onboarding need. */
export const ADMIN_HEADERS = { authorization: `Bearer ${ADMIN_TOKEN}` } as const

/** Starts `ob-console sandbox` on `dataDir` and the store `store` (a URL), on free ports, with ADMIN_TOKEN. */
export function startInstance(dataDir: string, store: string): Promise<Instance> {
  return spawnSandbox(
    ['--port', '0', '--data-dir', dataDir, '--store', store, '--admin-token-file', ADMIN_TOKEN_FILE, '--json'],
    { cwd: REPO, bin: BIN },
  )
}

/**
 * Starts `<bin> sandbox ARGS` (ARGS with --json) from `cwd` and resolves with the addresses of its first
 * stdout line; rejects with its stderr when it exits first.
 */
export function spawnSandbox(
  args: string[],
  options: { cwd: string; bin: string; env?: NodeJS.ProcessEnv },
): Promise<Instance> {
  const child = spawn(process.execPath, [options.bin, 'sandbox', ...args], {
    cwd: options.cwd,
    ...(options.env ? { env: options.env } : {}),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  return new Promise((res, rej) => {
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      stdout += d
      const nl = stdout.indexOf('\n')
      if (nl >= 0)
        res({ child, stderr: () => stderr, ...(JSON.parse(stdout.slice(0, nl)) as Omit<Instance, 'child' | 'stderr'>) })
    })
    child.once('exit', (code) => rej(new Error(`sandbox exited ${code}: ${stderr}`)))
  })
}

/** Stops an instance with `signal` (SIGTERM: a clean stop; SIGKILL: a crash) and waits for it to exit. */
export async function stopInstance(i: Instance | undefined, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
  if (!i || i.child.exitCode !== null || i.child.signalCode !== null) return
  const exited = new Promise((res) => i.child.once('exit', res))
  i.child.kill(signal)
  await exited
}
