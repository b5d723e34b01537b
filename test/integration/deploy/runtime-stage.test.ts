/**
 * The container image's runtime stage, checked without a container engine: the files its
 * `COPY --from=build` lines name are copied from this repository's built tree (out/cli by the test setup,
 * out/runtime-modules by scripts/runtime-modules.mjs, as the Dockerfile's build stage does) into an empty
 * folder outside the repository, and the sandbox started from there alone, on a throwaway PostgreSQL store,
 * must come up, answer /readyz, pass the image's health check and onboard a TPP.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, posix, resolve } from 'node:path'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freeConsecutivePorts } from '../../support/free-ports.ts'
import { startTestPostgres, type TestPostgres } from '../../support/postgres.ts'
import { spawnInstance, type Instance } from '../local-sandbox/support/sandbox-instances.ts'
import { runtimeStage } from './support/dockerfile-stages.ts'
import { localHaproxyConfig, startHaproxy } from './support/haproxy.ts'

const REPO = resolve(import.meta.dirname, '../../..')

type Started = Instance

/** `bin/ob-console.js sandbox ARGS` run from `cwd` (the copied runtime stage) with `env` only. */
const startSandbox = (cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<Started> =>
  spawnInstance(args, { cwd, bin: 'bin/ob-console.js', env })

describe("the Dockerfile's runtime stage, copied alone", () => {
  let pg: TestPostgres
  let root: string
  let app: string
  let dataDir: string
  let sandbox: Started
  let agent: Agent
  const adminToken = randomBytes(32).toString('base64url')
  const copied: string[] = []

  beforeAll(async () => {
    // The build stage: `node scripts/build-cli.mjs` ran in the test setup; the packages loaded lazily next.
    execFileSync(process.execPath, [join(REPO, 'scripts/runtime-modules.mjs')], { stdio: 'ignore' })
    const stage = runtimeStage(readFileSync(join(REPO, 'Dockerfile'), 'utf8'))
    root = mkdtempSync(join(tmpdir(), 'ob-runtime-stage-'))
    app = join(root, 'app')
    for (const copy of stage.copies) {
      expect(copy.from, `${copy.sources.join(' ')}: the runtime stage copies from the build stage only`).toBe('build')
      for (const source of copy.sources) {
        const from = join(REPO, posix.relative(stage.buildWorkdir, source))
        const to = join(app, posix.relative(stage.workdir, posix.resolve(stage.workdir, copy.destination)))
        cpSync(from, to, { recursive: true })
        copied.push(posix.relative(stage.workdir, posix.resolve(stage.workdir, copy.destination)))
      }
    }
    dataDir = join(root, 'data')
    mkdirSync(dataDir)
    writeFileSync(join(root, 'admin-token'), `${adminToken}\n`)
    pg = await startTestPostgres()
    const store = pg.createDatabase('runtime_stage')
    // Only what the image's environment sets, and PATH: no NODE_PATH, no repository to fall back on.
    const env = { PATH: process.env.PATH, ...stage.env, OB_CONSOLE_SANDBOX_DIR: dataDir }
    sandbox = await startSandbox(
      app,
      ['--store', store, '--port', '0', '--json', '--admin-token-file', join(root, 'admin-token')],
      env,
    )
    agent = new Agent({ connect: { ca: readFileSync(sandbox.caBundlePath, 'utf8') } })
  }, 120_000)

  afterAll(async () => {
    await agent?.close()
    if (sandbox && sandbox.child.exitCode === null) {
      const exited = new Promise((res) => sandbox.child.once('exit', res))
      sandbox.child.kill('SIGTERM')
      await exited
    }
    pg?.stop()
    if (root) rmSync(root, { recursive: true, force: true })
  })

  it('holds the bundle and what it reads, and no folder above it has node_modules to fall back on', () => {
    expect(copied).toEqual(
      expect.arrayContaining(['bin', 'out/cli', 'out/validators', 'node_modules', 'resources/local-sandbox']),
    )
    expect(readdirSync(join(app, 'node_modules'))).toContain('pg')
    // The repository's sources and its full node_modules are not there.
    expect(existsSync(join(app, 'src-main'))).toBe(false)
    expect(existsSync(join(app, 'node_modules', 'koa'))).toBe(false)
    for (let dir = dirname(app); dir !== dirname(dir); dir = dirname(dir))
      expect(existsSync(join(dir, 'node_modules')), `${dir}/node_modules`).toBe(false)
  })

  it('starts on the PostgreSQL store and answers /readyz on every origin', async () => {
    for (const origin of [sandbox.authUrl, sandbox.directoryUrl]) {
      const res = await request(`${origin}/readyz`, { dispatcher: agent })
      expect(await res.body.json()).toEqual({ status: 'ready' })
      expect(res.statusCode).toBe(200)
    }
  })

  it("passes the image's HEALTHCHECK command", () => {
    const stage = runtimeStage(readFileSync(join(REPO, 'Dockerfile'), 'utf8'))
    expect(stage.healthcheck.slice(0, 2)).toEqual(['node', 'deploy/healthcheck.mjs'])
    const port = new URL(sandbox.directoryUrl).port
    const ok = spawnSync(process.execPath, [stage.healthcheck[1]!, port, dataDir], { cwd: app, timeout: 10_000 })
    expect(ok.status).toBe(0)
    // A port nothing answers on is unhealthy.
    const closed = spawnSync(process.execPath, [stage.healthcheck[1]!, '1', dataDir], { cwd: app, timeout: 10_000 })
    expect(closed.status).toBe(1)
  })

  it('onboards a TPP with the admin token, and refuses one without it', async () => {
    const post = (headers: Record<string, string>) =>
      request(`${sandbox.directoryUrl}/tpps`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ roles: ['AISP', 'PISP'] }),
        dispatcher: agent,
      })
    const refused = await post({})
    await refused.body.dump()
    expect(refused.statusCode).toBe(401)
    const onboarded = await post({ authorization: `Bearer ${adminToken}` })
    const kit = (await onboarded.body.json()) as { orgId: string; softwareId: string; transportCertPem: string }
    expect(onboarded.statusCode).toBe(201)
    expect(kit.orgId).toBeTruthy()
    expect(kit.transportCertPem).toContain('BEGIN CERTIFICATE')
  })

  it('answers through deploy/haproxy.cfg (run with 127.0.0.1 for the service names): TLS passed through to it', async () => {
    const ports = (url: string) => Number(new URL(url).port)
    const instance = [sandbox.baseUrl, sandbox.authUrl, sandbox.directoryUrl].map(ports)
    const first = await freeConsecutivePorts(3)
    const front = [first, first + 1, first + 2]
    const config = localHaproxyConfig(readFileSync(join(REPO, 'deploy/haproxy.cfg'), 'utf8'), instance, front)
    expect(config).not.toMatch(/sandbox-\d+:/)
    const haproxy = startHaproxy(root, config)
    try {
      // Each frontend answers /readyz with the sandbox's own certificate (verified against its CA bundle):
      // HAProxy did not terminate TLS. Polled until HAProxy listens and its health checks pass.
      for (const port of front) {
        const deadline = Date.now() + 20_000
        let answer: { status: number; body: unknown } | undefined
        while (!answer) {
          try {
            const res = await request(`https://127.0.0.1:${port}/readyz`, { dispatcher: agent, reset: true })
            answer = { status: res.statusCode, body: await res.body.json() }
          } catch (err) {
            if (Date.now() > deadline) throw err
            await new Promise((r) => setTimeout(r, 200))
          }
        }
        expect(answer).toEqual({ status: 200, body: { status: 'ready' } })
      }
    } finally {
      await haproxy.stop()
    }
  }, 60_000)

  it('stops on SIGTERM with status 0', async () => {
    const exited = new Promise<number | null>((res) => sandbox.child.once('exit', (code) => res(code)))
    sandbox.child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })
})
