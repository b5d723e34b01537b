import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createConsoleRuntime, type ConsoleRuntime } from '../../../src-main/cli/console-runtime.ts'
import type { EnvironmentInput } from '../../../src-main/contract/environments.ts'
import { isAppError } from '../../../src-main/core/app-error.ts'

/**
 * A damaged client or settings file reaches the caller of the contract as STORE_ERROR naming the file and
 * the way back (never INTERNAL with the fix lost), and the console writes over nothing: the file and the
 * settings' backup stay as they were.
 */
describe('damaged store files through the contract', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ob-damaged-store-'))
  const settings = join(dataDir, 'store', 'ob-console.json')
  let rt: ConsoleRuntime

  beforeAll(async () => {
    rt = await createConsoleRuntime({ host: 'web', dataDir, loopbackPort: 0, log: () => undefined })
  })
  afterAll(async () => {
    await rt?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('a client file that is not JSON: clients.list is STORE_ERROR naming it, and the file stays', async () => {
    expect(await rt.handlers['clients.list']({})).toEqual({ ok: true, value: [] })
    const broken = join(dataDir, 'store', 'clients', 'broken.json')
    writeFileSync(broken, '{ "clientId": ')
    const r = await rt.handlers['clients.list']({})
    expect(r).toMatchObject({
      ok: false,
      error: {
        code: 'STORE_ERROR',
        what: `The client file ${broken} could not be read`,
        cause: expect.stringMatching(/^it is not JSON/),
        fix: expect.stringContaining(`move it out of ${join(dataDir, 'store', 'clients')}`),
        details: { path: broken },
      },
    })
    expect(readFileSync(broken, 'utf8')).toBe('{ "clientId": ')
    // A record of the wrong shape: the schema's complaint is the cause.
    writeFileSync(broken, JSON.stringify({ clientId: 'x' }))
    const shape = await rt.handlers['clients.list']({})
    expect(shape).toMatchObject({
      ok: false,
      error: { code: 'STORE_ERROR', what: `The client file ${broken} is not a client record` },
    })
    expect(!shape.ok && shape.error.cause).toMatch(/required property/)
    rmSync(broken)
    expect(await rt.handlers['clients.list']({})).toEqual({ ok: true, value: [] })
  })

  it('a settings file damaged while the console runs: reads and writes are STORE_ERROR; file and backup stay', async () => {
    // Two writes: the backup is the version before the second.
    const bank: EnvironmentInput = {
      name: 'A bank',
      kind: 'bank-sandbox',
      baseUrl: 'https://bank.example',
      authUrl: 'https://auth.bank.example',
      apiPaths: {
        registration: '/dynamic-client-registration/v3.2/register',
        ais: '/open-banking/v4.0/aisp',
        pis: '/open-banking/v4.0/pisp',
      },
      appScheme: 'bankapp',
      tlsVerification: 'off',
      allowedAuthMethods: ['private_key_jwt'],
    }
    const saved = await rt.handlers['environments.save'](bank)
    expect(saved.ok, JSON.stringify(saved)).toBe(true)
    const id = saved.ok ? saved.value.id : ''
    expect((await rt.handlers['environments.save']({ ...bank, id, name: 'The bank' })).ok).toBe(true)
    const listed = await rt.handlers['environments.list']()
    const envs = listed.ok ? listed.value : []
    expect(envs.map((e) => e.name)).toContain('The bank')
    const backup = readFileSync(`${settings}.bak`, 'utf8')

    writeFileSync(settings, '{ "environments": [ cut')
    const read = await rt.handlers['environments.list']()
    expect(read).toMatchObject({
      ok: false,
      error: {
        code: 'STORE_ERROR',
        what: `The console's settings file ${settings} could not be read`,
        cause: expect.stringMatching(/^it is not JSON/),
        fix: expect.stringContaining(`the version before the last write is ${settings}.bak: copy it over the file`),
        details: { path: settings },
      },
    })
    const write = await rt.handlers['environments.save']({ ...bank, id, name: 'Renamed' })
    expect(write).toMatchObject({ ok: false, error: { code: 'STORE_ERROR', details: { path: settings } } })
    expect(readFileSync(settings, 'utf8')).toBe('{ "environments": [ cut')
    expect(readFileSync(`${settings}.bak`, 'utf8')).toBe(backup)

    // The fix works: the backup copied over the file, the console reads it again.
    writeFileSync(settings, backup)
    const back = await rt.handlers['environments.list']()
    expect(back.ok && back.value.map((e) => e.id)).toEqual(envs.map((e) => e.id))
  })

  it('opening a data directory whose settings file does not match the schema fails with an AppError', async () => {
    const other = mkdtempSync(join(tmpdir(), 'ob-damaged-open-'))
    try {
      const path = join(other, 'store', 'ob-console.json')
      await createConsoleRuntime({ host: 'web', dataDir: other, loopbackPort: 0, log: () => undefined }).then((r) =>
        r.stop(),
      )
      writeFileSync(path, JSON.stringify({ environments: [{ id: 1 }] }))
      const err = await createConsoleRuntime({ host: 'web', dataDir: other, loopbackPort: 0, log: () => undefined })
        .then(async (r) => (await r.stop(), undefined))
        .catch((e: unknown) => e)
      expect(isAppError(err)).toBe(true)
      expect(err).toMatchObject({
        code: 'STORE_ERROR',
        what: `The console's settings file ${path} could not be read`,
        cause: expect.stringMatching(/^it does not match the settings schema/),
      })
      expect(existsSync(path) && readFileSync(path, 'utf8')).toBe(JSON.stringify({ environments: [{ id: 1 }] }))
    } finally {
      rmSync(other, { recursive: true, force: true })
    }
  })
})
