/**
 * Exports that real tools replay, against a local sandbox that stays running (`ob-console sandbox` in its own
 * process, a stand-in for the bank, reached through environment files with the starter kit's identity):
 *
 * - `ais --postman C --postman-env E`, then newman (from node_modules, its Node API) runs C with E and the
 *   kit's transport certificate, key and CA bundle: every data GET of the run answers 2xx.
 * - `export --last --curl F` per TLS setting (exact CA, system trust, verification off), each exported command
 *   run with /usr/bin/curl over mutual TLS: exact CA and off reach the bank; system trust fails with curl's
 *   exit 60 (the sandbox's CA is not in the system store), as expected.
 * - An output folder that does not exist is refused before the run starts.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startExternalBank, type ExternalBank } from './support/external-bank.ts'
import { lastJson, runCli } from './support/run-cli.ts'

const WORK = mkdtempSync(join(tmpdir(), 'ob-cli-replay-'))
const KIT = join(WORK, 'kit')
const run = (args: string[]) =>
  runCli(args, { env: { OB_CONSOLE_DATA_DIR: join(WORK, 'default-never-used') }, timeoutMs: 150_000 })

interface NewmanExecution {
  item: { name: string }
  request: { method: string; url: { toString(): string } }
  response?: { code: number }
  requestError?: { message: string }
}
const newman = createRequire(import.meta.url)('newman') as {
  run(
    options: Record<string, unknown>,
    done: (err: Error | null, summary: { run: { executions: NewmanExecution[] } }) => void,
  ): void
}

function replay(collection: string, environment: string): Promise<NewmanExecution[]> {
  return new Promise((resolve, reject) =>
    newman.run(
      {
        collection: JSON.parse(readFileSync(collection, 'utf8')),
        environment: JSON.parse(readFileSync(environment, 'utf8')),
        sslClientCert: join(KIT, 'transport.pem'),
        sslClientKey: join(KIT, 'transport.key'),
        sslExtraCaCerts: join(KIT, 'ca-bundle.pem'),
        reporters: [],
        timeoutRequest: 30_000,
      },
      (err, summary) => (err ? reject(err) : resolve(summary.run.executions)),
    ),
  )
}

describe('exports that newman and curl replay', () => {
  let bank: ExternalBank
  const environmentFile = (verify: 'exact-ca' | 'system' | 'off', clientId?: string) =>
    bank.environmentFile({ name: `Replay rehearsal (${verify})`, verify, ...(clientId ? { clientId } : {}) })

  /** A registered client and an AIS run through the environment file of this TLS setting, in its own store. */
  async function aisRun(verify: 'exact-ca' | 'system' | 'off', clientId: string | undefined, extra: string[] = []) {
    const data = join(WORK, `console-${verify}`)
    const env = ['--env', environmentFile(verify, clientId), '--data-dir', data]
    let client = clientId
    if (!client) {
      const registered = await bank.register(env)
      expect(registered.code, registered.stderr.slice(-2000)).toBe(0)
      client = (lastJson(registered) as { client: { clientId: string } }).client.clientId
    }
    const r = await run(['ais', ...env, '--headless', '--psu-ip', '192.0.2.10', '--json', ...extra])
    return { r, data, clientId: client }
  }

  /** The exported curl command of the run's first exchange (discovery: no token), run by /usr/bin/curl in the kit. */
  async function curlOfDiscovery(data: string, verify: string) {
    const file = join(WORK, `${verify}.curl.sh`)
    const exported = await run(['export', '--last', '--data-dir', data, '--curl', file])
    expect(exported.code, exported.stderr).toBe(0)
    const command = readFileSync(file, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('curl ') && l.includes('/.well-known/openid-configuration'))!
    expect(command).toBeDefined()
    // The kit holds transport.pem and transport.key, the names the command uses.
    const curl = spawnSync(
      '/bin/sh',
      ['-c', command.replace(/^curl /, '/usr/bin/curl -o /dev/null -w "%{http_code}" ')],
      {
        cwd: KIT,
        encoding: 'utf8',
        timeout: 30_000,
      },
    )
    return { command, exit: curl.status, status: curl.stdout, stderr: curl.stderr }
  }

  beforeAll(async () => {
    bank = await startExternalBank(WORK)
  }, 120_000)
  afterAll(async () => {
    await bank?.stop()
    rmSync(WORK, { recursive: true, force: true })
  })

  let exactData = ''
  let exactClient = ''

  it('refuses an output folder that does not exist before the run starts', async () => {
    const missing = join(WORK, 'no-such-folder', 'run.postman_collection.json')
    const r = await run(['ais', '--env', 'local', '--headless', '--postman', missing, '--json'])
    expect(r.code).toBe(2)
    expect(lastJson(r).error).toMatchObject({ code: 'FILE_NOT_FOUND' })
    expect(r.stderr).toContain(`--postman ${missing}: the folder ${dirname(missing)} does not exist`)
    expect(r.stderr).not.toContain('local sandbox:')
  })

  it('newman replays the collection with its environment file: every data GET of the AIS run answers 2xx', async () => {
    const collection = join(WORK, 'ais.postman_collection.json')
    const environment = join(WORK, 'ais.postman_environment.json')
    const { r, data, clientId } = await aisRun('exact-ca', undefined, [
      '--postman',
      collection,
      '--postman-env',
      environment,
    ])
    expect(r.code, r.stderr.slice(-2000)).toBe(0)
    exactData = data
    exactClient = clientId
    expect(statSync(environment).mode & 0o777).toBe(0o600)
    const text = readFileSync(collection, 'utf8')
    // No masked value is left in a header, and the tokens are variables whose values are in the environment only.
    const env = JSON.parse(readFileSync(environment, 'utf8')) as { values: Array<{ key: string; value: string }> }
    const token = env.values.find((v) => v.key === 'access_token')!.value
    expect(token.length).toBeGreaterThan(16)
    expect(text).not.toContain(token)
    expect(text).toContain('Bearer {{access_token}}')
    expect(text).not.toMatch(/BEGIN [A-Z ]*PRIVATE KEY/)
    expect(readFileSync(environment, 'utf8')).not.toMatch(/PRIVATE KEY/)

    const executions = await replay(collection, environment)
    const dataGets = executions.filter(
      (x) => x.request.method === 'GET' && x.request.url.toString().includes('/open-banking/v4.0/aisp/'),
    )
    // accounts, balances, every transactions page, the other resources
    expect(dataGets.length).toBeGreaterThanOrEqual(20)
    expect(dataGets.some((x) => /\/transactions\?page=2/.test(x.request.url.toString()))).toBe(true)
    const answers = dataGets.map((x) => `${x.item.name} -> ${x.response?.code ?? x.requestError?.message}`)
    expect(answers.filter((a) => !/ -> 2\d\d$/.test(a))).toEqual([])
    // Every request was sent (none refused by newman for a masked header value); the authorisation redirect is
    // shown, not followed to the loopback listener.
    expect(executions.filter((x) => x.requestError).map((x) => `${x.item.name}: ${x.requestError!.message}`)).toEqual(
      [],
    )
    expect(executions.length).toBe(JSON.parse(text).item.length)
  }, 240_000)

  it('curl with an exact CA: the exported command carries --cacert and reaches the bank over mutual TLS', async () => {
    const curl = await curlOfDiscovery(exactData, 'exact-ca')
    expect(curl.command).toMatch(/ --cert 'transport\.pem' --key 'transport\.key' --cacert '[^']+\.pem'$/)
    expect(curl.command).not.toMatch(/ -k\b/)
    expect({ exit: curl.exit, status: curl.status }).toEqual({ exit: 0, status: '200' })
  }, 120_000)

  it('curl with verification off: -k, and the bank is reached', async () => {
    const { r, data } = await aisRun('off', undefined)
    expect(r.code, r.stderr.slice(-2000)).toBe(0)
    const curl = await curlOfDiscovery(data, 'off')
    expect(curl.command).toMatch(/ --cert 'transport\.pem' --key 'transport\.key' -k$/)
    expect({ exit: curl.exit, status: curl.status }).toEqual({ exit: 0, status: '200' })
  }, 240_000)

  it('curl with system trust: no CA flag; curl refuses the sandbox with exit 60, as the console did', async () => {
    const { r, data } = await aisRun('system', exactClient)
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('cannot be verified')
    const curl = await curlOfDiscovery(data, 'system')
    expect(curl.command).toMatch(/ --cert 'transport\.pem' --key 'transport\.key'$/)
    expect(curl.exit).toBe(60)
  }, 120_000)
})
