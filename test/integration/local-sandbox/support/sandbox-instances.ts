import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { spawnSandbox, stopSandboxProcess } from '../../../support/sandbox-spawn.ts'

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

/** The header the instances' admin endpoints and onboarding need. */
export const ADMIN_HEADERS = { authorization: `Bearer ${ADMIN_TOKEN}` } as const

/**
 * Starts `ob-console sandbox` on `dataDir` and the store `store` (a URL), on free ports, with ADMIN_TOKEN. The
 * sandbox reads its token file once, as it starts: the file is removed as soon as the sandbox is up (or failed).
 */
export async function startInstance(dataDir: string, store: string): Promise<Instance> {
  const dir = mkdtempSync(join(tmpdir(), 'ob-instances-'))
  try {
    const tokenFile = join(dir, 'admin-token')
    writeFileSync(tokenFile, `${ADMIN_TOKEN}\n`, { mode: 0o600 })
    return await spawnInstance(
      ['--port', '0', '--data-dir', dataDir, '--store', store, '--admin-token-file', tokenFile, '--json'],
      { cwd: REPO, bin: BIN },
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Starts `<bin> sandbox ARGS` (ARGS with --json) from `cwd` and resolves with the addresses of its first
 * stdout line; rejects with its stderr when it exits first.
 */
export async function spawnInstance(
  args: string[],
  options: { cwd: string; bin: string; env?: NodeJS.ProcessEnv },
): Promise<Instance> {
  const { child, line, stderr } = await spawnSandbox(args, options)
  return { child, stderr, ...line }
}

/** Stops an instance with `signal` (SIGTERM: a clean stop; SIGKILL: a crash) and waits for it to exit. */
export async function stopInstance(i: Instance | undefined, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
  await stopSandboxProcess(i?.child, signal)
}
