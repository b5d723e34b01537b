/**
 * `ob-console sandbox report --client ID`: the bin reads a running sandbox's conformance report of a
 * client and exits 1 when a rule failed, 0 when none did, 3 when there is no report, 2 for bad arguments.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from './support/run-cli.ts'
import { startTestSandbox, type TestSandbox } from '../local-sandbox/support/sandbox-fixture.ts'
import { AIS, PSU, SloppyClient } from '../local-sandbox/conformance/support/sloppy-client.ts'

const work = mkdtempSync(join(tmpdir(), 'ob-cli-report-'))

const run = (args: string[]) =>
  runCli(['sandbox', 'report', ...args], { env: { OB_CONSOLE_SANDBOX_DIR: join(work, 'never-used') } })

let env: TestSandbox
let sloppy: SloppyClient
let careful: SloppyClient

beforeAll(async () => {
  env = await startTestSandbox()
  const tpp = await env.onboard({ roles: ['AISP'] })
  const overrides = { sandbox_profile: 'strict-headless', scope: 'openid accounts' }
  sloppy = new SloppyClient(tpp, await tpp.register({ overrides }), env.sandbox.baseUrl)
  careful = new SloppyClient(tpp, await tpp.register({ overrides }), env.sandbox.baseUrl)
  const consent = JSON.stringify({ Data: { Permissions: ['ReadAccountsBasic'] }, Risk: {} })
  // The careful client creates a consent as v4.0 says; the sloppy one sends no interaction id.
  const carefulToken = await tpp.clientCredentials(careful.client, 'accounts')
  expect(
    (await careful.call('POST', `${AIS}/account-access-consents`, { token: carefulToken, body: consent })).status,
  ).toBe(201)
  const cc = await tpp.clientCredentials(sloppy.client, 'accounts')
  const headers = { ...PSU, 'x-fapi-interaction-id': undefined }
  expect(
    (await sloppy.call('POST', `${AIS}/account-access-consents`, { token: cc, body: consent, headers })).status,
  ).toBe(201)
})
afterAll(async () => {
  await env?.stop()
  rmSync(work, { recursive: true, force: true })
})

describe('ob-console sandbox report', () => {
  it('exit 1 and the report as JSON when a rule failed', async () => {
    const r = await run(['--client', sloppy.client.clientId, '--data-dir', env.sandbox.dataDir, '--json'])
    expect(r.code, r.stderr).toBe(1)
    const report = JSON.parse(r.stdout)
    expect(report).toMatchObject({ clientId: sloppy.client.clientId, ok: false, requests: 1 })
    expect(report.rules.find((x: { id: string }) => x.id === 'interaction-id')).toMatchObject({ passed: 0, failed: 1 })
  })

  it('exit 0 when every rule passed; without --json, one line per rule', async () => {
    const r = await run(['--client', careful.client.clientId, '--data-dir', env.sandbox.dataDir])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain(
      `Conformance report of client ${careful.client.clientId}: every rule passed (1 request(s)`,
    )
    expect(r.stdout).toMatch(/✓ headers\.required\s+passed\s+1\s+failed\s+0/)
    expect(r.stdout).toMatch(/· pagination\s+passed\s+0\s+failed\s+0/)
  })

  it('--directory URL with --ca reaches the same report; the sloppy one prints its failure and the spec', async () => {
    const r = await run([
      '--client',
      sloppy.client.clientId,
      '--directory',
      env.sandbox.directoryUrl,
      '--ca',
      env.sandbox.caBundlePath,
    ])
    expect(r.code, r.stderr).toBe(1)
    expect(r.stdout).toMatch(/✗ interaction-id/)
    expect(r.stdout).toContain('no x-fapi-interaction-id was sent')
    expect(r.stdout).toContain('rests on: §4 leaves headers "not shown"')
  })

  it('exit 3 when there is no report: a client with no requests, no sandbox on the data dir', async () => {
    const unknown = await run(['--client', 'no-such-client', '--data-dir', env.sandbox.dataDir, '--json'])
    expect(unknown.code).toBe(3)
    expect(unknown.stderr).toContain('nothing is recorded for client "no-such-client"')
    expect(JSON.parse(unknown.stdout).error.code).toBe('NO_REPORT')
    const none = await run(['--client', 'x', '--data-dir', join(work, 'empty')])
    expect(none.code).toBe(3)
    expect(none.stderr).toContain('no sandbox runs on the data dir')
  })

  it('exit 3 naming the field when the directory answers 200 with something that is not a report', async () => {
    // A server of the test's own on the sandbox's certificate: what a sandbox of another version might answer.
    const pki = join(env.sandbox.dataDir, 'pki')
    const answer = { clientId: 'c1', keyedBy: 'client', ok: true, requests: 1, firstSeen: 'a', lastSeen: 'b' }
    const bodies = [
      { ...answer, rules: [{ id: 'interaction-id\u001b[31m', title: 't', checks: 'c', spec: 's' }] },
      { ...answer, rules: [] as unknown[], requests: '1' },
    ]
    let next = 0
    const server = createServer(
      { key: readFileSync(join(pki, 'server.key')), cert: readFileSync(join(pki, 'server.pem')) },
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify(bodies[next++ % bodies.length]))
      },
    )
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    try {
      const directory = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
      const args = ['--client', 'c1', '--directory', directory, '--ca', env.sandbox.caBundlePath]
      const missing = await run(args)
      expect(missing.code, missing.stderr).toBe(3)
      expect(missing.stderr).toContain('not a conformance report this command reads (rules[0].enforcement is missing)')
      const wrongType = await run([...args, '--json'])
      expect(wrongType.code).toBe(3)
      expect(JSON.parse(wrongType.stdout).error.what).toContain('requests must be integer')
    } finally {
      await new Promise((done) => server.close(done))
    }
  })

  it('exit 2 for bad arguments', async () => {
    expect((await run(['--data-dir', env.sandbox.dataDir])).code).toBe(2)
    const bad = await run(['--client', 'x', '--directory', 'http://127.0.0.1:1'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--directory must be an https URL')
    expect((await run(['--client', 'x', '--bogus'])).code).toBe(2)
  })

  it('a sandbox started with an admin token: refused without --admin-token-file, read with it', async () => {
    const token = 'a'.repeat(16) + Math.random().toString(36).slice(2).padEnd(12, 'z')
    const tokenFile = join(work, 'admin-token')
    writeFileSync(tokenFile, `${token}\n`)
    const guarded = await startTestSandbox({ adminToken: token })
    try {
      const args = [
        '--client',
        'no-such-client',
        '--directory',
        guarded.sandbox.directoryUrl,
        '--ca',
        guarded.sandbox.caBundlePath,
      ]
      const refused = await run(args)
      expect(refused.code).toBe(3)
      expect(refused.stderr).toContain("needs the sandbox's admin token")
      const read = await run([...args, '--admin-token-file', tokenFile])
      expect(read.code).toBe(3)
      expect(read.stderr).toContain('nothing is recorded for client "no-such-client"')
      expect(read.stderr + read.stdout).not.toContain(token)
    } finally {
      await guarded.stop()
    }
  })
})
