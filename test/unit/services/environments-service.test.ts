import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { EnvironmentInput } from '../../../src-main/contract/environments.ts'
import { EnvironmentsService, normaliseEnvironment } from '../../../src-main/services/environments-service.ts'
import { createFileSettingsStore } from '../../../src-main/services/persistence/settings-store.ts'

const bank: EnvironmentInput = {
  name: 'Bank sandbox',
  kind: 'bank-sandbox',
  baseUrl: 'https://rs.sandbox.bank.example/',
  authUrl: 'https://auth.sandbox.bank.example',
  apiPaths: {
    registration: '/dynamic-client-registration/v3.2/register',
    ais: '/open-banking/v4/aisp/',
    pis: '/open-banking/v4/pisp',
    o3: '/o3/v1.0',
  },
  appScheme: 'bankapp',
  tlsVerification: 'off',
  allowedAuthMethods: ['private_key_jwt', 'client_secret_basic'],
}

const code = (fn: () => unknown) => {
  try {
    fn()
  } catch (err) {
    return (err as { code?: string }).code
  }
  return 'no error'
}

describe('normaliseEnvironment', () => {
  it('trims trailing slashes of addresses and paths, keeping configurable base paths', () => {
    const env = normaliseEnvironment(bank, 'id', false)
    expect(env.baseUrl).toBe('https://rs.sandbox.bank.example')
    expect(env.apiPaths.ais).toBe('/open-banking/v4/aisp')
  })

  it('refuses http addresses and non-URLs with INVALID_INPUT naming the field', () => {
    expect(code(() => normaliseEnvironment({ ...bank, baseUrl: 'http://rs.example' }, 'id', false))).toBe(
      'INVALID_INPUT',
    )
    expect(() => normaliseEnvironment({ ...bank, authUrl: 'auth.example' }, 'id', false)).toThrow(/auth URL/)
    expect(() =>
      normaliseEnvironment({ ...bank, apiPaths: { ...bank.apiPaths, ais: 'aisp v4' } }, 'id', false),
    ).toThrow(/ais/)
  })

  it('names every problem of one save at once, each with its field, and saves nothing', () => {
    let err: { code?: string; what?: string; problems?: Array<{ path?: string; message: string }> } = {}
    try {
      normaliseEnvironment(
        { ...bank, name: ' ', baseUrl: 'http://rs.example', apiPaths: { ...bank.apiPaths, pis: 'pisp v4' } },
        'id',
        false,
      )
    } catch (e) {
      err = e as typeof err
    }
    expect(err.code).toBe('INVALID_INPUT')
    expect(err.what).toBe('The environment has 3 problems; nothing was saved.')
    expect(err.problems?.map((p) => p.path)).toEqual(['name', 'baseUrl', 'apiPaths.pis'])
    expect(err.problems?.[1]?.message).toContain('must use https')
  })

  it('allows only private_key_jwt in production, and refuses a production environment with none left', () => {
    expect(
      normaliseEnvironment({ ...bank, kind: 'production', tlsVerification: 'system' }, 'id', false).allowedAuthMethods,
    ).toEqual(['private_key_jwt'])
    expect(() =>
      normaliseEnvironment(
        { ...bank, kind: 'production', tlsVerification: 'system', allowedAuthMethods: ['client_secret_basic'] },
        'id',
        false,
      ),
    ).toThrow(/private_key_jwt/)
  })

  it('keeps a largest response body of 1 to 4096 whole MiB, refuses anything else, and leaves it out when unset', () => {
    expect(normaliseEnvironment({ ...bank, maxResponseBodyMiB: 200 }, 'id', false).maxResponseBodyMiB).toBe(200)
    expect(normaliseEnvironment(bank, 'id', false)).not.toHaveProperty('maxResponseBodyMiB')
    for (const bad of [0, 4097, 1.5, Number.NaN])
      expect(code(() => normaliseEnvironment({ ...bank, maxResponseBodyMiB: bad }, 'id', false))).toBe('INVALID_INPUT')
  })

  it('needs a CA bundle for exact-CA verification', () => {
    expect(() => normaliseEnvironment({ ...bank, tlsVerification: 'exact-ca' }, 'id', false)).toThrow(/CA bundle/)
  })
})

describe('EnvironmentsService', () => {
  const dirs: string[] = []
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })))
  function service(withSandbox = true) {
    const d = mkdtempSync(join(tmpdir(), 'envs-'))
    dirs.push(d)
    const sandbox = {
      start: async () => ({
        baseUrl: 'https://127.0.0.1:1',
        authUrl: 'https://127.0.0.1:2',
        directoryUrl: 'https://127.0.0.1:3',
        caBundlePem: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
      }),
      current: () => undefined,
    }
    return new EnvironmentsService(createFileSettingsStore(d), withSandbox ? sandbox : undefined)
  }

  it('creates, updates and removes a user environment', () => {
    const s = service()
    const created = s.save(bank)
    expect(s.get(created.id).name).toBe('Bank sandbox')
    s.save({ ...created, name: 'Renamed' })
    expect(s.list().map((e) => e.name)).toEqual(['Renamed'])
    s.remove(created.id)
    expect(s.list()).toEqual([])
    expect(code(() => s.get(created.id))).toBe('NOT_FOUND')
  })

  it('builds in the local sandbox environment: exact CA, addresses managed by the console, not removable', async () => {
    const s = service()
    const local = await s.startLocalSandbox()
    expect(local).toMatchObject({
      id: 'local-sandbox',
      kind: 'local-sandbox',
      tlsVerification: 'exact-ca',
      builtIn: true,
      baseUrl: 'https://127.0.0.1:1',
    })
    expect(code(() => s.remove(local.id))).toBe('INVALID_INPUT')
    expect(code(() => s.save({ ...local, baseUrl: 'https://elsewhere.example' }))).toBe('INVALID_INPUT')
    expect(s.save({ ...local, name: 'My local bank' }).name).toBe('My local bank')
  })

  it("gives the test PSUs' logins for the local sandbox only, and only while it runs", async () => {
    const d = mkdtempSync(join(tmpdir(), 'envs-'))
    dirs.push(d)
    let running = false
    const psus = [{ username: 'amelia', password: 'pw-1', name: 'Amelia', psuId: 'p1' }]
    const sandbox = {
      start: async () => {
        running = true
        return {
          baseUrl: 'https://127.0.0.1:1',
          authUrl: 'https://127.0.0.1:2',
          directoryUrl: 'https://127.0.0.1:3',
          caBundlePem: 'x',
        }
      },
      current: () => undefined,
      testPsus: () => (running ? psus : undefined),
    }
    const s = new EnvironmentsService(createFileSettingsStore(d), sandbox)
    const bankEnv = s.save(bank)
    expect(code(() => s.testPsus(bankEnv.id))).toBe('INVALID_INPUT')
    const local = await s.startLocalSandbox()
    // Only the login fields leave the service.
    expect(s.testPsus(local.id)).toEqual([{ username: 'amelia', password: 'pw-1', name: 'Amelia' }])
    running = false
    expect(code(() => s.testPsus(local.id))).toBe('NOT_FOUND')
  })

  it('says how to get a sandbox when the host has none', async () => {
    await expect(service(false).startLocalSandbox()).rejects.toMatchObject({
      code: 'NOT_FOUND',
      fix: expect.stringContaining('serve'),
    })
  })
})
