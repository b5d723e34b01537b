/**
 * Several `ob-console sandbox` instances on one PostgreSQL store behind a TCP round-robin balancer
 * (tcp-balancer.ts), as a team runs the sandbox (docs/team-sandbox.md): every instance listens on its own
 * three ports, writes the balancer's ports in every URL (`--public-port`), has a data dir of its own and the
 * same admin token. Instances can be killed (SIGKILL: a crash) and started again on the same ports while
 * the rest keep serving. Used by the cluster tests (test/integration/cluster) and the P10 benchmark.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Agent, request } from 'undici'
import { spawnSandbox, stopSandboxProcess, type SpawnedSandbox } from './sandbox-spawn.ts'
import { freeConsecutivePorts } from './free-ports.ts'
import { startTcpBalancer, type OriginPorts, type TcpBalancer } from './tcp-balancer.ts'

const REPO = resolve(import.meta.dirname, '../..')

/** The three origins of a sandbox, as URLs. */
export interface Origins {
  baseUrl: string
  authUrl: string
  directoryUrl: string
}

export interface ClusterInstance {
  index: number
  ports: OriginPorts
  /** The instance's own origins (https://127.0.0.1:its ports), bypassing the balancer. */
  direct: Origins
  dataDir: string
  /** The running process, undefined while killed. */
  process: SpawnedSandbox | undefined
}

export interface SandboxCluster {
  /** The origins through the balancer: what every instance writes in its URLs. */
  front: Origins
  /** The PostgreSQL store every instance is on. */
  storeUrl: string
  caBundlePem: string
  adminHeaders: { authorization: string }
  instances: ClusterInstance[]
  balancer: TcpBalancer
  /** SIGKILLs instance `i` (a crash: no graceful stop) and waits for it to exit. */
  kill(i: number): Promise<void>
  /** Starts instance `i` again on its ports and data dir; resolves with the ms until its /readyz said 200. */
  start(i: number): Promise<number>
  /** Onboards a TPP at the directory through the balancer (with the admin token) and returns its starter kit. */
  onboard(roles: Array<'AISP' | 'PISP'>): Promise<Record<string, any>> // eslint-disable-line @typescript-eslint/no-explicit-any
  stop(): Promise<void>
}

const origins = (ports: readonly number[]): Origins => ({
  baseUrl: `https://127.0.0.1:${ports[0]}`,
  authUrl: `https://127.0.0.1:${ports[1]}`,
  directoryUrl: `https://127.0.0.1:${ports[2]}`,
})

/** Three-port ranges for `n` instances, none overlapping another. */
async function instancePorts(n: number): Promise<OriginPorts[]> {
  const bases: number[] = []
  while (bases.length < n) {
    const base = await freeConsecutivePorts(3)
    if (bases.every((b) => Math.abs(b - base) > 2)) bases.push(base)
  }
  return bases.map((b) => [b, b + 1, b + 2] as const)
}

/**
 * Starts `count` instances on `storeUrl` (an empty or existing PostgreSQL database) and the balancer in
 * front. `root`: the checkout whose bin/ob-console.js runs (default this one).
 */
export async function startSandboxCluster(options: {
  storeUrl: string
  count?: number
  root?: string
}): Promise<SandboxCluster> {
  const root = options.root ?? REPO
  const count = options.count ?? 3
  const work = mkdtempSync(join(tmpdir(), 'ob-cluster-'))
  const adminToken = randomBytes(24).toString('base64url')
  const adminTokenFile = join(work, 'admin-token')
  writeFileSync(adminTokenFile, `${adminToken}\n`, { mode: 0o600 })
  const ports = await instancePorts(count)
  const balancer = await startTcpBalancer(ports)
  const instances: ClusterInstance[] = ports.map((p, index) => ({
    index,
    ports: p,
    direct: origins(p),
    dataDir: mkdtempSync(join(work, `instance-${index}-`)),
    process: undefined,
  }))
  let ca: Agent | undefined

  async function ready(i: ClusterInstance): Promise<void> {
    for (let attempt = 0; attempt < 100; attempt++) {
      const res = await request(`${i.direct.baseUrl}/readyz`, { dispatcher: ca }).catch(() => undefined)
      const status = res?.statusCode
      await res?.body.dump()
      if (status === 200) return
      await new Promise((r) => setTimeout(r, 50))
    }
    throw new Error(`instance ${i.index} printed its addresses but /readyz never said 200`)
  }

  async function start(index: number): Promise<number> {
    const i = instances[index]!
    const t0 = performance.now()
    i.process = await spawnSandbox(
      [
        '--port',
        String(i.ports[0]),
        '--public-port',
        String(balancer.port),
        '--store',
        options.storeUrl,
        '--data-dir',
        i.dataDir,
        '--admin-token-file',
        adminTokenFile,
        '--json',
      ],
      { cwd: root, bin: join(root, 'bin/ob-console.js') },
    )
    ca ??= new Agent({ connect: { ca: readFileSync(i.process.line.caBundlePath, 'utf8') } })
    await ready(i)
    return performance.now() - t0
  }

  const stop = async () => {
    await Promise.all(instances.map((i) => stopSandboxProcess(i.process?.child)))
    await balancer.stop()
    await ca?.close()
    rmSync(work, { recursive: true, force: true })
  }

  try {
    // The first creates the bank's identity in an empty store; the others load it.
    await start(0)
    await Promise.all(instances.slice(1).map((i) => start(i.index)))
    const caBundlePem = readFileSync(instances[0]!.process!.line.caBundlePath, 'utf8')
    const front = origins([balancer.port, balancer.port + 1, balancer.port + 2])
    const adminHeaders = { authorization: `Bearer ${adminToken}` }
    return {
      front,
      storeUrl: options.storeUrl,
      caBundlePem,
      adminHeaders,
      instances,
      balancer,
      start,
      async kill(index) {
        const i = instances[index]!
        await stopSandboxProcess(i.process?.child, 'SIGKILL')
        i.process = undefined
      },
      async onboard(roles) {
        const res = await request(`${front.directoryUrl}/tpps`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...adminHeaders },
          body: JSON.stringify({ roles }),
          dispatcher: ca,
        })
        const text = await res.body.text()
        if (res.statusCode !== 201) throw new Error(`POST /tpps through the balancer: ${res.statusCode} ${text}`)
        return JSON.parse(text)
      },
      stop,
    }
  } catch (err) {
    await stop()
    throw err
  }
}
