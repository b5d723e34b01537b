/**
 * The local sandbox under test, run as a TPP developer runs it: `ob-console sandbox --port 0 --json` in a
 * child process of its own (so a client in the bench process never shares its event loop), on a fresh
 * temporary data directory that is removed at stop.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Agent, request } from 'undici'
import { spawnSandbox, stopSandboxProcess } from '../../support/sandbox-spawn.ts'

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')
/**
 * The checkout whose `bin/ob-console.js` runs as the sandbox under test: this one, or
 * `$OB_BENCH_SANDBOX_ROOT` to measure a change to the sandbox (another worktree) against the same floor.
 */
export const SANDBOX_ROOT = resolve(process.env.OB_BENCH_SANDBOX_ROOT ?? REPO_ROOT)

/** The parts of a directory starter kit (`POST {directory_url}/tpps`) the benchmarks use. */
export interface StarterKit {
  orgId: string
  softwareId: string
  ssa: string
  signingKid: string
  signingKeyPem: string
  transportCertPem: string
  transportKeyPem: string
  redirectUris: string[]
}

/** What a benchmark's client needs of a sandbox: its origins, its CA and onboarding (a process, or a balancer in front of several). */
export type SandboxEndpoint = Pick<SandboxProcess, 'baseUrl' | 'authUrl' | 'caBundlePem' | 'onboard'>

export interface SandboxProcess {
  baseUrl: string
  authUrl: string
  directoryUrl: string
  dataDir: string
  caBundlePath: string
  caBundlePem: string
  /** The sandbox process. */
  readonly pid: number
  /** Onboards a new TPP at the directory (HTTPS) and returns its starter kit. */
  onboard(roles: Array<'AISP' | 'PISP'>): Promise<StarterKit>
  /** Moves the sandbox clock forward by `seconds` (`POST {directory_url}/admin/clock`). */
  advanceClock(seconds: number): Promise<void>
  /** Replaces the sandbox's fault rules (`PUT {directory_url}/admin/faults`, with the admin token it was started with). */
  setFaults(rules: unknown[]): Promise<void>
  /** The last lines the sandbox wrote to stderr (for error messages). */
  stderrTail(): string
  /** SIGTERM, wait for a clean exit (the CPU profile is written then), remove the data directory. */
  stop(): Promise<void>
}

/**
 * Starts `ob-console sandbox` on three free ports (on the store `store` names, default embedded). `cpuProfDir`: run it under `node --cpu-prof` and write
 * the profiles (one per thread, Node's default names) there when it stops. `adminToken: false` starts it without
 * an admin token, as the console's own local sandbox runs (an embedded store only: one on PostgreSQL needs one).
 */
export async function startSandboxProcess(
  opts: { cpuProfDir?: string; store?: string; adminToken?: boolean } = {},
): Promise<SandboxProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ob-bench-sandbox-'))
  // A bench sandbox has an admin token unless told otherwise: its onboarding and clock calls send it.
  const adminToken = opts.adminToken === false ? undefined : randomBytes(24).toString('base64url')
  const adminTokenFile = join(dataDir, 'admin-token')
  if (adminToken) writeFileSync(adminTokenFile, `${adminToken}\n`, { mode: 0o600 })
  const nodeArgs = opts.cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', opts.cpuProfDir] : []
  const args = [
    '--port',
    '0',
    '--json',
    '--data-dir',
    dataDir,
    ...(opts.store ? ['--store', opts.store] : []),
    ...(adminToken ? ['--admin-token-file', adminTokenFile] : []),
  ]
  const current = await spawnSandbox(args, {
    cwd: SANDBOX_ROOT,
    bin: join(SANDBOX_ROOT, 'bin/ob-console.js'),
    nodeArgs,
  })
  const info = current.line
  const caBundlePem = readFileSync(info.caBundlePath, 'utf8')
  const directory = new Agent({ connect: { ca: caBundlePem }, connections: 1 })

  async function directoryCall(
    method: 'POST' | 'PUT',
    path: string,
    body: unknown,
    expected: number,
  ): Promise<unknown> {
    const res = await request(`${info.directoryUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(adminToken ? { authorization: `Bearer ${adminToken}` } : {}) },
      body: JSON.stringify(body),
      dispatcher: directory,
    })
    const text = await res.body.text()
    if (res.statusCode !== expected)
      throw new Error(`${method} ${path} at the directory answered ${res.statusCode}: ${text.slice(0, 300)}`)
    return JSON.parse(text)
  }

  return {
    baseUrl: info.baseUrl,
    authUrl: info.authUrl,
    directoryUrl: info.directoryUrl,
    dataDir,
    caBundlePath: info.caBundlePath,
    caBundlePem,
    get pid() {
      return current.child.pid!
    },
    onboard: async (roles) =>
      (await directoryCall('POST', '/tpps', { roles, orgName: 'Bench TPP' }, 201)) as StarterKit,
    advanceClock: async (seconds) => {
      await directoryCall('POST', '/admin/clock', { advanceSeconds: seconds }, 200)
    },
    setFaults: async (rules) => {
      await directoryCall('PUT', '/admin/faults', { rules }, 200)
    },
    stderrTail: () => current.stderr(),
    stop: async () => {
      await directory.close()
      await stopSandboxProcess(current.child, 'SIGTERM', 10_000)
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
