/**
 * The bank-conformance lens in the built command line (`bin/ob-console.js`, out/cli):
 * a local sandbox started as a stand-in for the bank with `ob-console sandbox --faults FILE` (a mutate rule
 * making the accounts answer invalid, another making one transactions page over 2 MB with a member too
 * long), the journey through an environment file. Without --strict the run passes (exit 0) and names the
 * violations; with --strict it fails with exit 3; on the sandbox with its faults removed, no violation.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startExternalBank, type ExternalBank } from './support/external-bank.ts'
import { lastJson, runCli } from './support/run-cli.ts'

const WORK = mkdtempSync(join(tmpdir(), 'ob-cli-lens-'))
const AIS = '/open-banking/v4.0/aisp'

const run = (args: string[]) => runCli(args, { env: { OB_CONSOLE_DATA_DIR: join(WORK, 'default-never-used') } })

const LONG = 'x'.repeat(2 * 1024 * 1024)
const RULES = {
  rules: [
    {
      id: 'bad-date',
      origin: 'base',
      method: 'GET',
      path: `${AIS}/accounts`,
      fault: { kind: 'mutate', set: { '/Data/Account/0/OpeningDate': 'not-a-date' } },
    },
    {
      id: 'huge-page',
      origin: 'base',
      method: 'GET',
      path: `${AIS}/accounts/*/transactions`,
      times: 1,
      fault: { kind: 'mutate', set: { '/Data/Transaction/0/TransactionInformation': LONG } },
    },
  ],
}

describe('ob-console ais: the bank-conformance lens and --strict', () => {
  let bank: ExternalBank
  let started: ExternalBank['started']
  let env: string[]

  beforeAll(async () => {
    bank = await startExternalBank(WORK, { faults: RULES })
    started = bank.started
    env = ['--env', bank.environmentFile({ name: 'Lens rehearsal' }), '--data-dir', join(WORK, 'console-data')]
    const registered = await bank.register(env)
    expect(registered.code, registered.stderr).toBe(0)
  }, 180_000)
  afterAll(async () => {
    await bank?.stop()
    rmSync(WORK, { recursive: true, force: true })
  })

  it('without --strict: exit 0, the violations after their step, in --json as "conformance"', async () => {
    const r = await run(['ais', ...env, '--headless', '--psu-ip', '192.0.2.10', '--json'])
    expect(r.code, r.stderr.slice(-2000)).toBe(0)
    const result = lastJson(r)
    const flagged = (result.conformance as Array<{ path: string; violations: Array<Record<string, string>> }>).filter(
      (e) => e.violations.length,
    )
    expect(flagged.map((e) => e.path)).toEqual([`${AIS}/accounts`, expect.stringMatching(/\/transactions$/)])
    expect(flagged[0]!.violations).toEqual([
      expect.objectContaining({ path: 'Data.Account[0].OpeningDate', rule: 'schema.format', value: '"not-a-date"' }),
    ])
    // The 2 MB page was checked (the command line checks on its own thread); the value shown is cut short.
    const long = flagged[1]!.violations.find((v) => v.path === 'Data.Transaction[0].TransactionInformation')!
    expect(long.rule).toBe('schema.maxLength')
    expect(long.value!.length).toBeLessThanOrEqual(80)
    // The text log (stderr with --json is the step log): each step's violations follow its line.
    const afterAccounts = r.stderr.slice(r.stderr.indexOf('✓ Accounts')).split('\n').slice(1, 3)
    expect(afterAccounts[0]).toMatch(
      /^ {2}! 1 bank-conformance violation in the answer to GET \/open-banking\/v4\.0\/aisp\/accounts /,
    )
    expect(afterAccounts[1]).toMatch(
      /^ {4}- schema\.format at Data\.Account\[0\]\.OpeningDate: .*\(found "not-a-date"\)$/,
    )
  }, 180_000)

  it('with --strict: exit 3, and the summary says why', async () => {
    const r = await run(['ais', ...env, '--headless', '--psu-ip', '192.0.2.10', '--strict'])
    expect(r.code, r.stderr.slice(-2000)).toBe(3)
    expect(r.stdout).toMatch(/bank conformance: \d+ answers checked, 1 violation \(--strict: the command fails\)/)
  }, 180_000)

  it('with the faults removed: no violation in any answer, --strict exits 0', async () => {
    const agent = new Agent({ connect: { ca: readFileSync(started.caBundlePath, 'utf8') } })
    try {
      const res = await request(`${started.directoryUrl}/admin/faults`, { method: 'DELETE', dispatcher: agent })
      expect(res.statusCode).toBe(200)
      await res.body.dump()
    } finally {
      await agent.close()
    }
    const r = await run(['ais', ...env, '--headless', '--psu-ip', '192.0.2.10', '--strict', '--json'])
    expect(r.code, r.stderr.slice(-2000)).toBe(0)
    const entries = lastJson(r).conformance as Array<{ violations: unknown[] }>
    expect(entries.length).toBeGreaterThan(25)
    expect(entries.filter((e) => e.violations.length)).toEqual([])
  }, 180_000)
})
