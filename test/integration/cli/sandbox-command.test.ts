import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Agent, request } from 'undici'
import { afterAll, describe, expect, it } from 'vitest'

const REPO = resolve(import.meta.dirname, '../../..')
const BIN = join(REPO, 'bin/ob-console.js')

const temps: string[] = []
function temp(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  temps.push(dir)
  return dir
}
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true })
})
/** An admin token file whose token is too short to be one. */
const SHORT_TOKEN_FILE = join(temp('ob-admin-token-'), 'token')
writeFileSync(SHORT_TOKEN_FILE, 'short\n')

interface Run {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

function start(args: string[]): {
  child: ChildProcessWithoutNullStreams
  done: Promise<Run>
  stdout: () => string
  stderr: () => string
} {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: REPO,
    env: { ...process.env, OB_CONSOLE_SANDBOX_DIR: join(tmpdir(), 'ob-never-used-default') },
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  const done = new Promise<Run>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  )
  return { child, done, stdout: () => stdout, stderr: () => stderr }
}

function run(args: string[]): Promise<Run> {
  return start(args).done
}

/** Resolves with the first stdout line, or rejects with what the process said if it ends first. */
function firstLine(proc: ReturnType<typeof start>, timeoutMs = 45_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no stdout line within ${timeoutMs} ms; stderr: ${proc.stderr()}`)),
      timeoutMs,
    )
    const check = () => {
      const i = proc.stdout().indexOf('\n')
      if (i >= 0) {
        clearTimeout(timer)
        proc.child.stdout.off('data', check)
        resolve(proc.stdout().slice(0, i))
      }
    }
    proc.child.stdout.on('data', check)
    proc.done.then((r) => {
      clearTimeout(timer)
      reject(new Error(`exited with ${r.code} before printing a line; stderr: ${r.stderr}`))
    })
  })
}

describe('ob-console sandbox: arguments', () => {
  it.each([
    [['sandbox', '--port', 'abc'], /--port must be a whole number from 0 to 65533/],
    [['sandbox', '--port', '65535'], /--port must be a whole number/],
    [['sandbox', '--bogus'], /Unknown option '--bogus'/],
    [['sandbox', '--tls-mode', 'loose'], /--tls-mode must be explain or handshake, got "loose"/],
    [['sandbox', '--transport-certs', 'any'], /--transport-certs must be ca-issued or self-signed-allowed, got "any"/],
    [
      ['sandbox', '--issue-tpp', 'x', '--transport-certs', 'ca-issued'],
      /--transport-certs starts a sandbox; it cannot be combined with --issue-tpp/,
    ],
    [['sandbox', '--clock-offset=-5'], /--clock-offset must be a non-negative number of seconds/],
    [['sandbox', '--org-name', 'Acme'], /--org-name only applies with --issue-tpp DIR/],
    [
      ['sandbox', '--issue-tpp', 'x', '--port', '9000'],
      /--port starts a sandbox; it cannot be combined with --issue-tpp/,
    ],
    [['sandbox', 'extra'], /unexpected argument "extra"/],
    [
      ['sandbox', '--admin-token-file', SHORT_TOKEN_FILE],
      /--admin-token-file .*token: the token on its first line cannot be used: it is 5 characters long; an admin token has at least 24/,
    ],
    [
      ['sandbox', '--issue-tpp', 'x', '--admin-token-file', 'f'],
      /--admin-token-file starts a sandbox; it cannot be combined with --issue-tpp/,
    ],
    [['sandbox', '--data-dir', BIN], /--data-dir .*ob-console\.js is a file, not a directory/],
    [['sandbox', '--issue-tpp', join(tmpdir(), 'ob-never-written'), '--data-dir', BIN], /is a file, not a directory/],
  ])('%j: one-line error and the usage, exit 2', async (args, message) => {
    const r = await run(args)
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    const [first, ...rest] = r.stderr.split('\n')
    expect(first).toMatch(/^ob-console sandbox: /)
    expect(first).toMatch(message)
    expect(rest.join('\n')).toContain('Usage:')
  })

  it('--help prints the usage, exit 0', async () => {
    const r = await run(['sandbox', '--help'])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/ob-console sandbox --issue-tpp DIR/)
  })
})

describe('ob-console sandbox --issue-tpp', () => {
  it('writes a starter kit from a data dir with no sandbox running, then refuses to overwrite it', async () => {
    const dataDir = temp('ob-cli-data-')
    const kitDir = join(temp('ob-cli-kit-'), 'kit')
    const r = await run([
      'sandbox',
      '--issue-tpp',
      kitDir,
      '--data-dir',
      dataDir,
      '--org-name',
      'CLI Org',
      '--client-name',
      'CLI App',
      '--roles',
      'aisp',
      '--redirect-uri',
      'https://127.0.0.1:7000/cb',
      '--redirect-uri',
      'com.example.app:/cb',
    ])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(readdirSync(kitDir).sort()).toEqual([
      'ca-bundle.pem',
      'issuing-ca.pem',
      'manifest.json',
      'root-ca.pem',
      'signing.jwks.json',
      'signing.key',
      'ssa.jwt',
      'transport.key',
      'transport.pem',
    ])
    expect(statSync(join(kitDir, 'transport.key')).mode & 0o777).toBe(0o600)
    expect(statSync(join(kitDir, 'signing.key')).mode & 0o777).toBe(0o600)
    const manifest = JSON.parse(readFileSync(join(kitDir, 'manifest.json'), 'utf8'))
    expect(manifest).toMatchObject({
      orgName: 'CLI Org',
      clientName: 'CLI App',
      roles: ['AISP'],
      redirectUris: ['https://127.0.0.1:7000/cb', 'com.example.app:/cb'],
    })
    expect(manifest.addresses.directoryUrl).toBe('https://127.0.0.1:8445')
    expect(r.stdout).toContain(`software id    ${manifest.softwareId}`)
    expect(r.stdout).toContain('No sandbox runs on this data dir')
    // The TPP is in the data dir's directory, and the kit's CA bundle is the data dir's.
    expect(existsSync(join(dataDir, 'directory', 'tpps', `${manifest.softwareId}.json`))).toBe(true)
    expect(readFileSync(join(kitDir, 'ca-bundle.pem'), 'utf8')).toBe(
      readFileSync(join(dataDir, 'pki', 'ca-bundle.pem'), 'utf8'),
    )

    const keyBefore = readFileSync(join(kitDir, 'signing.key'), 'utf8')
    const again = await run(['sandbox', '--issue-tpp', kitDir, '--data-dir', dataDir])
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/already holds a starter kit .*keys are never overwritten/)
    expect(readFileSync(join(kitDir, 'signing.key'), 'utf8')).toBe(keyBefore)
  })

  it('with --json, the first stdout line is the manifest', async () => {
    const dataDir = temp('ob-cli-data-')
    const kitDir = temp('ob-cli-kit-')
    const r = await run(['sandbox', '--issue-tpp', kitDir, '--data-dir', dataDir, '--json'])
    expect(r.code).toBe(0)
    const line = JSON.parse(r.stdout.split('\n')[0]!)
    expect(line).toEqual({ dir: kitDir, ...JSON.parse(readFileSync(join(kitDir, 'manifest.json'), 'utf8')) })
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(1)
  })

  it('refuses a bad redirect URI before writing anything, exit 2', async () => {
    const kitDir = join(temp('ob-cli-kit-'), 'kit')
    const r = await run([
      'sandbox',
      '--issue-tpp',
      kitDir,
      '--data-dir',
      temp('ob-cli-data-'),
      '--redirect-uri',
      'http://tpp.example.com/cb',
    ])
    expect(r.code).toBe(2)
    expect(r.stderr.split('\n')[0]).toMatch(/not a loopback IP/)
    expect(existsSync(kitDir)).toBe(false)
  })
})

describe('ob-console sandbox: start', () => {
  let blocker: Server | undefined
  afterAll(() => blocker?.close())

  it('a port in use: one line naming the port and --port 0, exit 1', async () => {
    blocker = createServer()
    await new Promise<void>((resolve) => blocker!.listen(0, '127.0.0.1', resolve))
    const port = (blocker.address() as AddressInfo).port
    const r = await run(['sandbox', '--port', String(port), '--data-dir', temp('ob-cli-data-'), '--json'])
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is in use`)
    expect(r.stderr).toContain('--port 0')
  })

  it('--port 0 --json: the first line has the addresses; the directory serves a TPP issued by another process at once; SIGTERM exits 0', async () => {
    const dataDir = temp('ob-cli-data-')
    const proc = start(['sandbox', '--port', '0', '--json', '--data-dir', dataDir])
    const agents: Agent[] = []
    try {
      const line = JSON.parse(await firstLine(proc))
      expect(line).toMatchObject({
        caBundlePath: join(dataDir, 'pki', 'ca-bundle.pem'),
        dataDir,
        transportCertificates: 'self-signed-allowed',
      })
      for (const k of ['baseUrl', 'authUrl', 'directoryUrl']) expect(line[k]).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
      expect(line.psus).toHaveLength(3)
      for (const p of line.psus) expect(Object.keys(p).sort()).toEqual(['name', 'password', 'username'])

      const agent = new Agent({ connect: { ca: readFileSync(line.caBundlePath, 'utf8') }, connections: 1 })
      agents.push(agent)
      const jwks = await request(`${line.directoryUrl}/jwks`, { dispatcher: agent })
      expect(jwks.statusCode).toBe(200)
      expect(((await jwks.body.json()) as { keys: unknown[] }).keys).toHaveLength(1)

      const kitDir = temp('ob-cli-kit-')
      const issued = await run(['sandbox', '--issue-tpp', kitDir, '--data-dir', dataDir])
      expect(issued.code).toBe(0)
      const manifest = JSON.parse(readFileSync(join(kitDir, 'manifest.json'), 'utf8'))
      expect(manifest.addresses.directoryUrl).toBe(line.directoryUrl)
      expect(issued.stdout).toMatch(/The sandbox running on this data dir \(pid \d+\) accepts this TPP now/)
      const softwareJwks = await request(manifest.jwksEndpoint, { dispatcher: agent })
      expect(softwareJwks.statusCode).toBe(200)
      expect(await softwareJwks.body.json()).toEqual(
        JSON.parse(readFileSync(join(kitDir, 'signing.jwks.json'), 'utf8')),
      )
    } finally {
      await Promise.all(agents.map((a) => a.close()))
      proc.child.kill('SIGTERM')
    }
    const r = await proc.done
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(/SIGTERM received, stopping/)
    expect(existsSync(join(dataDir, 'state', 'running.json'))).toBe(false)
  })

  it('without --json prints the addresses, PSU logins, CA bundle and data dir for people; SIGINT exits 0', async () => {
    const dataDir = temp('ob-cli-data-')
    const proc = start(['sandbox', '--port', '0', '--data-dir', dataDir])
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner; stderr: ${proc.stderr()}`)), 45_000)
      proc.child.stdout.on('data', () => {
        if (proc.stdout().includes('Stop with Ctrl+C.')) {
          clearTimeout(timer)
          resolve()
        }
      })
    })
    proc.child.kill('SIGINT')
    const r = await proc.done
    expect(r.code).toBe(0)
    for (const label of [
      'base_url',
      'auth_url',
      'discovery',
      'directory_url',
      'onboarding',
      'CA bundle',
      'data dir',
      'Test PSU logins',
    ])
      expect(r.stdout).toContain(label)
    expect(r.stdout).toContain(join(dataDir, 'pki', 'ca-bundle.pem'))
    expect(r.stdout).toMatch(/\/\.well-known\/openid-configuration/)
  })
})

describe('ob-console sandbox: the PKI is kept in the data dir; --fresh makes a new one', () => {
  /** Starts a sandbox on the data dir, returns its root CA file's text, and stops it (exit 0). */
  async function rootAfterStart(dataDir: string, extra: string[] = []): Promise<string> {
    const proc = start(['sandbox', '--port', '0', '--json', '--data-dir', dataDir, ...extra])
    try {
      JSON.parse(await firstLine(proc))
      return readFileSync(join(dataDir, 'pki', 'root-ca.pem'), 'utf8')
    } finally {
      proc.child.kill('SIGTERM')
      expect((await proc.done).code).toBe(0)
    }
  }

  it('a restart reuses the root CA and the issued TPPs; --fresh mints a new root and forgets them', async () => {
    const dataDir = temp('ob-cli-data-')
    const first = await rootAfterStart(dataDir)
    const kitDir = temp('ob-cli-kit-')
    expect((await run(['sandbox', '--issue-tpp', kitDir, '--data-dir', dataDir])).code).toBe(0)
    expect(readdirSync(join(dataDir, 'directory', 'tpps'))).toHaveLength(1)

    expect(await rootAfterStart(dataDir)).toBe(first)
    const fresh = await rootAfterStart(dataDir, ['--fresh'])
    expect(fresh).toMatch(/^-----BEGIN CERTIFICATE-----/)
    expect(fresh).not.toBe(first)
    expect(
      existsSync(join(dataDir, 'directory', 'tpps')) ? readdirSync(join(dataDir, 'directory', 'tpps')) : [],
    ).toEqual([])
  }, 180_000)

  it('--fresh refuses to empty a data dir a running sandbox uses, exit 1', async () => {
    const dataDir = temp('ob-cli-data-')
    const proc = start(['sandbox', '--port', '0', '--json', '--data-dir', dataDir])
    try {
      JSON.parse(await firstLine(proc))
      const root = readFileSync(join(dataDir, 'pki', 'root-ca.pem'), 'utf8')
      const r = await run(['sandbox', '--port', '0', '--fresh', '--data-dir', dataDir])
      expect(r.code).toBe(1)
      expect(r.stderr).toMatch(
        new RegExp(`--fresh would empty .*, but the sandbox with pid ${proc.child.pid} runs on it; stop it first`),
      )
      expect(readFileSync(join(dataDir, 'pki', 'root-ca.pem'), 'utf8')).toBe(root)
    } finally {
      proc.child.kill('SIGTERM')
      await proc.done
    }
  }, 120_000)

  it('--fresh with --issue-tpp is refused, exit 2', async () => {
    const r = await run(['sandbox', '--issue-tpp', join(tmpdir(), 'ob-never-written'), '--fresh'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--fresh starts a sandbox; it cannot be combined with --issue-tpp')
  })
})
