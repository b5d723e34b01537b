import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { lastJson, runCli } from './support/run-cli.ts'

const DATA = mkdtempSync(join(tmpdir(), 'ob-cli-journey-'))
afterAll(() => rmSync(DATA, { recursive: true, force: true }))

/** Runs the CLI alone in the one data directory. */
const run = (args: string[], timeoutMs?: number) =>
  runCli(args, { env: { OB_CONSOLE_DATA_DIR: join(DATA, 'default-never-used') }, ...(timeoutMs ? { timeoutMs } : {}) })
const json = lastJson

const local = ['--env', 'local', '--data-dir', DATA, '--json']

describe('the CLI alone, one --data-dir: onboard → prerequisites → discovery → dcr get → dcr update → ais → consent get → consent delete → dcr delete → dcr get', () => {
  it('acts on the same sandbox and console store at every step', { timeout: 900_000 }, async () => {
    const onboard = await run(['onboard', '--headless', ...local])
    expect(onboard.code, onboard.stderr).toBe(0)
    const clientId = json(onboard).clientId as string
    expect(clientId).toMatch(/^[\w-]{8,}$/)

    // A registration that fails the checks is not sent; sent anyway, the bank's own refusal comes back.
    const checked = await run(['dcr', 'register', '--request-object-alg', 'RS256', ...local])
    expect(checked.code).toBe(1)
    expect(json(checked).error).toMatchObject({
      code: 'CLAIMS_INVALID',
      what: 'The registration request was not sent.',
    })
    const anyway = await run(['dcr', 'register', '--request-object-alg', 'RS256', '--send-anyway', ...local])
    expect(anyway.code).toBe(1)
    expect(json(anyway).error.code).toBe('DCR_ERROR')
    expect(json(anyway).error.cause).toContain('request_object_signing_alg is "RS256"')

    const prerequisites = await run(['prerequisites', ...local])
    expect(prerequisites.code, prerequisites.stderr).toBe(0)
    expect(json(prerequisites).checks.map((c: { name: string }) => c.name)).toEqual(
      expect.arrayContaining([
        'Organisation exists in the directory',
        'Software statement signed by the directory',
        "Transport certificate organisation (OU) is the SSA's org_id",
      ]),
    )

    const discovery = await run(['discovery', ...local])
    expect(discovery.code, discovery.stderr).toBe(0)
    const view = json(discovery)
    expect(view.clientId).toBe(clientId)
    expect(view.endpoints.token_endpoint).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/token$/)
    expect(view.checks.length).toBeGreaterThan(8)
    expect(view.checks.every((c: { pass: boolean }) => c.pass)).toBe(true)

    const get = await run(['dcr', 'get', ...local])
    expect(get.code, get.stderr).toBe(0)
    expect(json(get).client.clientId).toBe(clientId)
    expect(json(get).client.scope.split(' ')).toContain('payments')

    const update = await run(['dcr', 'update', '--scope', 'openid accounts', ...local])
    expect(update.code, update.stderr).toBe(0)
    expect(json(update).client.scope).toBe('openid accounts')
    expect(json(update).changedByBank).toEqual([])

    // The bank does not register client_name (it names the client from the software statement): the update
    // says so instead of "updated" alone.
    const renamed = await run(['dcr', 'update', '--client-name', 'Renamed by update', ...local.slice(0, -1)])
    expect(renamed.code, renamed.stderr).toBe(0)
    expect(json(get).client.registration.client_name).toBeUndefined()
    expect(renamed.stdout).toContain('The bank changed or dropped 1 claim sent')
    expect(renamed.stdout).toContain('  client_name: sent "Renamed by update"; the bank did not register it\n')

    const ais = await run(['ais', '--headless', ...local], 300_000)
    expect(ais.code, ais.stderr.slice(-2000)).toBe(0)
    const journey = json(ais)
    expect(journey.clientId).toBe(clientId)
    expect(journey.accounts.length).toBeGreaterThan(0)
    const consentId = journey.consentId as string

    const list = await run(['consent', 'list', '--data-dir', DATA, '--json'])
    expect(list.code, list.stderr).toBe(0)
    expect(json(list).consents.map((c: { consentId: string }) => c.consentId)).toEqual([consentId])
    expect(json(list).consents[0].lastScaAt).toBeTruthy()

    const consent = await run(['consent', 'get', '--consent', consentId, ...local])
    expect(consent.code, consent.stderr).toBe(0)
    expect(json(consent).consent.status).toBe('AUTH')
    expect(json(consent).consent.permissions).toContain('ReadAccountsDetail')

    const revoke = await run(['consent', 'delete', '--consent', consentId, ...local])
    expect(revoke.code, revoke.stderr).toBe(0)
    expect(json(revoke).consent.status).toBe('Deleted')

    const deleted = await run(['dcr', 'delete', ...local])
    expect(deleted.code, deleted.stderr).toBe(0)
    expect(json(deleted)).toMatchObject({ clientId, deleted: true })

    const refused = await run(['dcr', 'get', '--client', clientId, ...local])
    expect(refused.code).toBe(1)
    expect(json(refused).error.code).toBe('NOT_FOUND')
    expect(refused.stderr).toContain(`No registered client "${clientId}"`)
  })
})
