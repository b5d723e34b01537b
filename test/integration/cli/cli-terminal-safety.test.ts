/**
 * Terminal safety of the built command line (`bin/ob-console.js`, out/cli) against a bank that answers with
 * terminal control sequences: a local sandbox started as the bank with `ob-console sandbox`, its fault mode
 * (rules set per case on `{directory_url}/admin/faults`) writing `\x1b[2J\x1b[31m`-style values into an OB
 * `ErrorCode`/`Message`, an `AccountTypeCode`, a payment `Status`, a `ConsentId`, an HTML `<title>`, JSON cut
 * short (quoted by the parse message) and a body declared gzip with NUL bytes; the journeys through an
 * environment file (the embedded sandbox of `--env local` takes no fault rules from the command line).
 * Every captured byte of stdout and stderr is free of raw C0/DEL/C1 controls; the escaped form is shown; a bad
 * ConsentId stops the consent step before anything is sent to the authorisation server.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startExternalBank, type ExternalBank } from './support/external-bank.ts'
import { BIN, lastJson, REPO } from './support/run-cli.ts'

const WORK = mkdtempSync(join(tmpdir(), 'ob-cli-terminal-'))
const AIS = '/open-banking/v4.0/aisp'
const PIS = '/open-banking/v4.0/pisp'
/** Clears the screen, turns the text red, sets the window title (OSC), a C1 CSI, a NUL and a DEL. */
const HOSTILE = '\x1b[2J\x1b[31m\x1b]0;pwned\x07\u009b31m\u0000\u007f'
/** What the console shows of it. */
const SHOWN = '\\x1b[2J\\x1b[31m\\x1b]0;pwned\\x07\\x9b31m\\x00\\x7f'

/** C0 but tab and newline, and DEL: never in the bytes written (C1 is checked on the decoded text). */
// eslint-disable-next-line no-control-regex -- the bytes under test
const RAW_C0 = /[\x00-\x08\x0b-\x1f\x7f]/
// eslint-disable-next-line no-control-regex -- the characters under test
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/

interface RawRun {
  code: number | null
  stdout: Buffer
  stderr: Buffer
}

/** Runs the CLI keeping its output as bytes. */
function runRaw(args: string[]): Promise<RawRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: REPO,
      env: { ...process.env, OB_CONSOLE_DATA_DIR: join(WORK, 'default-never-used') },
    })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (d: Buffer) => out.push(d))
    child.stderr.on('data', (d: Buffer) => err.push(d))
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000)
    child.on('error', fail)
    child.on('close', (code) => {
      clearTimeout(timer)
      done({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err) })
    })
    child.stdin.end()
  })
}

/** Asserts no raw control byte reached the terminal; returns stdout and stderr as text. */
function safeOutput(r: RawRun): { stdout: string; stderr: string } {
  for (const bytes of [r.stdout, r.stderr]) {
    const c0 = [...bytes].findIndex((b) => (b < 0x20 && b !== 0x09 && b !== 0x0a) || b === 0x7f)
    expect(c0, `raw control byte at ${c0}: ${bytes.subarray(Math.max(0, c0 - 40), c0 + 40).toString()}`).toBe(-1)
    // C1 controls are U+0080–U+009F once decoded (their bytes are also UTF-8 continuation bytes of other text).
    expect(bytes.toString('utf8')).not.toMatch(RAW_CONTROL)
    expect(bytes.toString('utf8')).not.toMatch(RAW_C0)
  }
  return { stdout: r.stdout.toString('utf8'), stderr: r.stderr.toString('utf8') }
}

describe('ob-console ais|pis: a bank that answers terminal control sequences', () => {
  let bank: ExternalBank
  let started: ExternalBank['started']
  let agent: Agent
  let env: string[]

  /** Sets the sandbox's fault rules: a watch on the authorisation endpoint first, then `rules`. */
  async function setRules(rules: unknown[]): Promise<void> {
    const res = await request(`${started.directoryUrl}/admin/faults`, {
      method: 'PUT',
      dispatcher: agent,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        rules: [{ id: 'watch-auth', origin: 'auth', path: '/auth', fault: { kind: 'latency', ms: 0 } }, ...rules],
      }),
    })
    expect(res.statusCode, await res.body.text()).toBe(200)
  }

  /** Requests the authorisation endpoint has seen since the rules were set. */
  async function authorisationRequests(): Promise<number> {
    const res = await request(`${started.directoryUrl}/admin/faults`, { dispatcher: agent })
    const { rules } = (await res.body.json()) as { rules: Array<{ id: string; seen: number }> }
    return rules.find((r) => r.id === 'watch-auth')!.seen
  }

  beforeAll(async () => {
    bank = await startExternalBank(WORK)
    started = bank.started
    agent = new Agent({ connect: { ca: readFileSync(started.caBundlePath, 'utf8') } })
    const base = ['--env', bank.environmentFile({ name: 'Hostile bank' }), '--data-dir', join(WORK, 'console-data')]
    env = [...base, '--headless']
    const registered = await bank.register(base)
    expect(registered.code, registered.stderr).toBe(0)
  }, 180_000)
  afterAll(async () => {
    await agent?.close()
    await bank?.stop()
    rmSync(WORK, { recursive: true, force: true })
  })

  const AIS_CASES = {
    AccountTypeCode: {
      id: 'account-type',
      origin: 'base',
      method: 'GET',
      path: `${AIS}/accounts`,
      fault: { kind: 'mutate', set: { '/Data/Account/0/AccountTypeCode': `${HOSTILE}CACC` } },
    },
    'ErrorCode and Message': {
      id: 'ob-error',
      origin: 'base',
      method: 'GET',
      path: `${AIS}/accounts`,
      fault: {
        kind: 'status',
        status: 400,
        contentType: 'application/json',
        body: {
          Code: '400 BadRequest',
          Id: 'e1',
          Message: `${HOSTILE}request refused`,
          Errors: [{ ErrorCode: `${HOSTILE}UK.OBIE.Field.Invalid`, Message: `${HOSTILE}field`, Path: 'Data' }],
        },
      },
    },
  }

  it.each([
    ['AccountTypeCode', false],
    ['AccountTypeCode', true],
    ['ErrorCode and Message', false],
    ['ErrorCode and Message', true],
  ] as const)(
    'AIS: an answer with control sequences in its %s (--json %s) is shown escaped',
    async (which, json) => {
      await setRules([AIS_CASES[which]])
      const r = await runRaw(['ais', ...env, '--psu-ip', '192.0.2.10', ...(json ? ['--json'] : [])])
      const { stdout, stderr } = safeOutput(r)
      expect(r.code, stderr.slice(-3000)).toBe(1)
      const log = json ? stderr : stdout
      // The accounts step failed; its line and sentences quote the bank's value, escaped.
      const failed = log.slice(log.indexOf('✗ Accounts'))
      expect(failed).toMatch(/^✗ Accounts/)
      expect(failed).toContain(which === 'AccountTypeCode' ? `${SHOWN}CACC` : SHOWN)
      if (json) {
        const result = lastJson({ code: r.code, stdout, stderr })
        expect(result.steps).toEqual(
          expect.arrayContaining([expect.objectContaining({ name: 'accounts', status: 'failed' })]),
        )
        // Valid JSON (lastJson parsed it), escaped by JSON where it quotes the bank.
        if (which === 'AccountTypeCode') {
          expect(stdout).toContain('\\u001b[2J')
          expect(stdout).toContain('\\u009b31m')
        }
      }
    },
    180_000,
  )

  const BODY_CASES = {
    'an HTML <title>': {
      status: 503,
      contentType: 'text/html',
      body: `<!doctype html><html><head><title>${HOSTILE}Maintenance</title></head><body>down</body></html>`,
    },
    'JSON cut short (the parse message quotes the body)': {
      status: 200,
      contentType: 'application/json',
      body: `{"Data": {"Account": [{"AccountId": "${HOSTILE}`,
    },
    'a body declared gzip, with NUL and other control bytes': {
      status: 200,
      contentType: 'application/json',
      headers: { 'content-encoding': 'gzip' },
      body: `\u001f\u008b\u0008\u0000\u0000\u0000\u0000\u0000${HOSTILE}`,
    },
  }

  it.each(Object.keys(BODY_CASES) as Array<keyof typeof BODY_CASES>)(
    'AIS: %s is shown escaped',
    async (which) => {
      const c = BODY_CASES[which]
      await setRules([
        {
          id: 'body',
          origin: 'base',
          method: 'GET',
          path: `${AIS}/accounts`,
          fault: { kind: 'status', ...c },
        },
      ])
      const r = await runRaw(['ais', ...env, '--psu-ip', '192.0.2.10'])
      const { stdout, stderr } = safeOutput(r)
      expect(r.code, stderr.slice(-3000)).toBe(1)
      const failed = stdout.slice(stdout.indexOf('✗ Accounts'))
      expect(failed).toMatch(/^✗ Accounts/)
      if (which.startsWith('a body declared gzip')) {
        // Named as the coding it claims and is not, its first bytes in hex: never raw, never "malformed JSON".
        expect(failed).toMatch(/Content-Encoding: gzip.*not gzip data/)
        expect(failed).toMatch(/it begins 1f( [0-9a-f]{2}){7}/)
      }
      // The bank's bytes quoted by the step's sentences are shown escaped (as \x1b, or JSON's \u001b).
      else expect(failed).toMatch(/\\(x1b|u001b)\[2/)
    },
    180_000,
  )

  it.each([false, true])(
    'AIS, --json %s: a ConsentId with control sequences stops the consent step; nothing reaches the authorisation server',
    async (json) => {
      await setRules([
        {
          id: 'consent-id',
          origin: 'base',
          method: 'POST',
          path: `${AIS}/account-access-consents`,
          fault: { kind: 'mutate', set: { '/Data/ConsentId': `${HOSTILE}aac-1` } },
        },
      ])
      const r = await runRaw(['ais', ...env, '--psu-ip', '192.0.2.10', ...(json ? ['--json'] : [])])
      const { stdout, stderr } = safeOutput(r)
      expect(r.code, stderr.slice(-3000)).toBe(1)
      const log = json ? stderr : stdout
      const failed = log.slice(log.indexOf('✗ '))
      expect(failed).toMatch(/^✗ Account access consent/i)
      expect(failed).toContain(
        `The bank's ConsentId of the new consent is not an Open Banking identifier: "${SHOWN}aac-1"`,
      )
      expect(failed).toContain('^[A-Za-z0-9._:\\-]{1,128}$')
      expect(await authorisationRequests()).toBe(0)
      if (json) {
        const steps = lastJson({ code: r.code, stdout, stderr }).steps as Array<{ name: string; status: string }>
        expect(steps.find((s) => s.name === 'consent')?.status).toBe('failed')
        // The failed step carries its coded error in --json.
        expect(steps.find((s) => s.name === 'consent')).toMatchObject({ error: { code: 'BANK_ID_INVALID' } })
        expect(steps.filter((s) => s.status === 'done').map((s) => s.name)).not.toContain('capture')
      }
    },
    180_000,
  )

  it.each([false, true])(
    'PIS, --json %s: a payment Status with control sequences is shown escaped',
    async (json) => {
      await setRules([
        {
          id: 'payment-status',
          origin: 'base',
          method: 'POST',
          path: `${PIS}/domestic-payments`,
          fault: { kind: 'mutate', set: { '/Data/Status': `${HOSTILE}ACSP` } },
        },
      ])
      const r = await runRaw(['pis', ...env, ...(json ? ['--json'] : [])])
      const { stdout, stderr } = safeOutput(r)
      const log = json ? stderr : stdout
      expect(log, stderr.slice(-3000)).toContain(`${SHOWN}ACSP`)
      if (json) {
        const result = lastJson({ code: r.code, stdout, stderr })
        expect(result.steps.length).toBeGreaterThan(3)
      }
    },
    180_000,
  )

  it('PIS: a payment ConsentId with control sequences stops the consent step before authorisation', async () => {
    await setRules([
      {
        id: 'payment-consent-id',
        origin: 'base',
        method: 'POST',
        path: `${PIS}/domestic-payment-consents`,
        fault: { kind: 'mutate', set: { '/Data/ConsentId': `${HOSTILE}pc-1` } },
      },
    ])
    const r = await runRaw(['pis', ...env])
    const { stdout, stderr } = safeOutput(r)
    expect(r.code, stderr.slice(-3000)).toBe(1)
    expect(stdout).toContain(
      `The bank's ConsentId of the new consent is not an Open Banking identifier: "${SHOWN}pc-1"`,
    )
    expect(await authorisationRequests()).toBe(0)
  }, 180_000)
})
