/**
 * A failed step's code in the built command line (`bin/ob-console.js`, out/cli): a local sandbox started as a
 * stand-in for the bank with `ob-console sandbox --faults FILE` (its consent endpoint answers 400 with an Open
 * Banking error body), the journey through an environment file with `--json --har FILE`. The failed step and
 * the run carry the same coded error (code, what, cause, fix, step, exchangeId); the exchange it names is the
 * HAR entry whose comment carries the code.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { harSchemaErrors } from '../../support/har-schema.ts'
import { startExternalBank, type ExternalBank } from './support/external-bank.ts'
import { lastJson, runCli } from './support/run-cli.ts'

const WORK = mkdtempSync(join(tmpdir(), 'ob-cli-step-errors-'))
const CONSENTS = '/open-banking/v4.0/aisp/account-access-consents'

const run = (args: string[]) => runCli(args, { env: { OB_CONSOLE_DATA_DIR: join(WORK, 'default-never-used') } })

const RULES = {
  rules: [
    {
      id: 'consent-refused',
      origin: 'base',
      method: 'POST',
      path: CONSENTS,
      fault: {
        kind: 'status',
        status: 400,
        body: {
          Code: '400 BadRequest',
          Id: 'err-1',
          Message: 'The request is invalid',
          Errors: [{ ErrorCode: 'U002', Message: 'Permissions is not valid', Path: 'Data.Permissions' }],
        },
      },
    },
  ],
}

interface HarEntry {
  _exchangeId: string
  comment?: string
  _failedStep?: { flowId: string; step: string; code: string; what: string }
  request: { method: string; url: string }
  response: { status: number }
}

describe('ob-console ais --json: a failed step carries its code', () => {
  let bank: ExternalBank
  let env: string[]

  beforeAll(async () => {
    bank = await startExternalBank(WORK, { faults: RULES })
    env = ['--env', bank.environmentFile({ name: 'Step errors rehearsal' }), '--data-dir', join(WORK, 'console-data')]
    const registered = await bank.register(env)
    expect(registered.code, registered.stderr).toBe(0)
  }, 180_000)

  afterAll(async () => {
    await bank?.stop()
    rmSync(WORK, { recursive: true, force: true })
  })

  it('the failed step and the run: OB_ERROR at "consent", naming the exchange the HAR comments on', async () => {
    const harFile = join(WORK, 'ais.har')
    const r = await run(['ais', ...env, '--headless', '--psu-ip', '192.0.2.10', '--json', '--har', harFile])
    expect(r.code, r.stderr.slice(-2000)).toBe(1)
    const result = lastJson(r)

    const steps = result.steps as Array<{ name: string; status: string; error?: Record<string, unknown> }>
    const failed = steps.filter((s) => s.status === 'failed')
    expect(failed.map((s) => s.name)).toEqual(['consent'])
    // Only a failed step has an error.
    expect(steps.filter((s) => s.error).map((s) => s.name)).toEqual(['consent'])
    const error = failed[0]!.error!
    expect(error).toMatchObject({
      code: 'OB_ERROR',
      step: 'consent',
      exchangeId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      problems: [expect.objectContaining({ code: expect.stringMatching(/^U002\b/), path: 'Data.Permissions' })],
    })
    for (const sentence of ['what', 'cause', 'fix']) expect(typeof error[sentence]).toBe('string')
    expect(error.what).toContain('400')
    // The run's error is the first failed step's.
    expect(result.error).toEqual(error)

    // The exchange it names: the consent POST, answered 400, in the lens's entries and in the HAR.
    const checked = (result.conformance as Array<{ exchangeId: string; method: string; path: string }>).find(
      (e) => e.exchangeId === error.exchangeId,
    )
    expect(checked).toMatchObject({ method: 'POST', path: CONSENTS })
    const har = JSON.parse(readFileSync(harFile, 'utf8')) as { log: { entries: HarEntry[] } }
    expect(await harSchemaErrors(har)).toEqual([])
    const entry = har.log.entries.find((e) => e._exchangeId === error.exchangeId)
    expect(entry?.request).toMatchObject({ method: 'POST', url: expect.stringContaining(CONSENTS) })
    expect(entry?.response.status).toBe(400)
    expect(entry?.comment).toContain(`step "consent" failed: OB_ERROR: ${error.what as string}`)
    expect(entry?._failedStep).toMatchObject({ step: 'consent', code: 'OB_ERROR', what: error.what })
    // No other entry says a step failed on it.
    expect(har.log.entries.filter((e) => e._failedStep).map((e) => e._exchangeId)).toEqual([error.exchangeId])
  }, 180_000)
})
