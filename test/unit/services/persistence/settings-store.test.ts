import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import Conf from 'conf'
import { Ajv } from 'ajv'
import { findOpenApiDir } from '../../../../src-main/conformance/openapi-files.ts'
import { loadStandaloneModule } from '../../../../src-main/plumbing/standalone-validators.ts'
import {
  RECORD_SCHEMAS,
  recordProblems,
  recordValidator,
  recordValidatorsFile,
  recordValidatorsSource,
} from '../../../../src-main/services/persistence/record-validators.ts'
import {
  cachedSettingsStore,
  createFileSettingsStore,
  SETTINGS_STORE_OPTIONS,
  type ConfLike,
} from '../../../../src-main/services/persistence/settings-store.ts'
import type { EnvironmentRecord, SettingsDocument } from '../../../../src-main/services/persistence/settings-schema.ts'

const env: EnvironmentRecord = {
  id: 'local',
  name: 'Local sandbox',
  kind: 'local-sandbox',
  baseUrl: 'https://127.0.0.1:8443',
  authUrl: 'https://127.0.0.1:8444',
  apiPaths: {
    registration: '/dynamic-client-registration/v3.2/register',
    ais: '/open-banking/v4.0/aisp',
    pis: '/open-banking/v4.0/pisp',
    o3: '/o3/v1.0',
  },
  appScheme: 'bankapp',
  tlsVerification: 'exact-ca',
  allowedAuthMethods: ['private_key_jwt', 'client_secret_basic'],
  builtIn: true,
}

describe('file settings store', () => {
  const dirs: string[] = []
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'settings-'))
    dirs.push(d)
    return d
  }
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })))

  it('starts empty, persists across instances, in ob-console.json', () => {
    const d = dir()
    const a = createFileSettingsStore(d)
    expect(a.get('environments')).toEqual([])
    a.set('environments', [env])
    expect(a.path).toBe(join(d, 'ob-console.json'))
    expect(createFileSettingsStore(d).get('environments')).toEqual([env])
  })

  it('refuses a value that breaks the schema and keeps the previous one', () => {
    const s = createFileSettingsStore(dir())
    s.set('environments', [env])
    expect(() => s.set('environments', [{ ...env, kind: 'moon' as never }])).toThrow()
    expect(s.get('environments')).toEqual([env])
  })

  it('never clears an unreadable file: it fails with the path and leaves the file as it was', () => {
    const d = dir()
    writeFileSync(join(d, 'ob-console.json'), '{ not json')
    expect(() => createFileSettingsStore(d)).toThrow(new RegExp(d.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    expect(readFileSync(join(d, 'ob-console.json'), 'utf8')).toBe('{ not json')
  })

  it('keeps the version before each write as ob-console.json.bak, and names it when the file cannot be read', () => {
    const d = dir()
    const s = createFileSettingsStore(d)
    s.set('environments', [env])
    s.set('environments', [env, { ...env, id: 'second' }])
    const bak = JSON.parse(readFileSync(join(d, 'ob-console.json.bak'), 'utf8')) as SettingsDocument
    expect(bak.environments.map((e) => e.id)).toEqual(['local'])
    writeFileSync(join(d, 'ob-console.json'), '{ cut sho')
    expect(() => createFileSettingsStore(d)).toThrow(
      expect.objectContaining({
        fix: expect.stringContaining(`${join(d, 'ob-console.json.bak')}: copy it over the file`),
      }),
    )
  })

  it('a file damaged while open: reads and writes are STORE_ERROR, and neither the file nor its backup is touched', () => {
    const d = dir()
    const path = join(d, 'ob-console.json')
    const s = createFileSettingsStore(d)
    s.set('environments', [env])
    s.set('environments', [env, { ...env, id: 'second' }])
    const backup = readFileSync(`${path}.bak`, 'utf8')
    writeFileSync(path, '{ "environments": 7 }')
    const damaged = expect.objectContaining({
      code: 'STORE_ERROR',
      what: `The console's settings file ${path} could not be read`,
      cause: expect.stringMatching(/^it does not match the settings schema/),
      fix: expect.stringContaining(`${path}.bak: copy it over the file`),
      details: { path },
    })
    expect(() => s.get('environments')).toThrow(damaged)
    expect(() => s.set('environments', [env])).toThrow(damaged)
    expect(readFileSync(path, 'utf8')).toBe('{ "environments": 7 }')
    expect(readFileSync(`${path}.bak`, 'utf8')).toBe(backup)
  })

  it("reads from a cache while the file is unchanged: values are frozen, own writes seen at once, another process's write at the next read", () => {
    const d = dir()
    const mine = createFileSettingsStore(d)
    const other = createFileSettingsStore(d)
    mine.set('environments', [env])
    const first = mine.get('environments')
    expect(mine.get('environments')).toBe(first)
    expect(Object.isFrozen(first) && Object.isFrozen(first[0]) && Object.isFrozen(first[0]!.apiPaths)).toBe(true)
    expect(() => (first as EnvironmentRecord[]).push(env)).toThrow(TypeError)
    // Another process (another store on the same file) writes: the next read sees it.
    other.set('environments', [env, { ...env, id: 'bank', builtIn: false }])
    expect(mine.get('environments').map((e) => e.id)).toEqual(['local', 'bank'])
    // This store's own write of one key: seen at once, the other keys still right.
    mine.set('clients', [])
    expect(mine.get('clients')).toEqual([])
    expect(mine.get('environments').map((e) => e.id)).toEqual(['local', 'bank'])
    mine.set('environments', [env])
    expect(mine.get('environments')).toEqual([env])
    expect(other.get('environments')).toEqual([env])
  })
})

describe('cached settings store', () => {
  const dirs: string[] = []
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })))

  /** A conf on a new directory that counts how often the whole document is read from the file. */
  function countingConf() {
    const d = mkdtempSync(join(tmpdir(), 'settings-'))
    dirs.push(d)
    const conf = new Conf<SettingsDocument>({
      ...SETTINGS_STORE_OPTIONS,
      cwd: d,
      projectName: 'ob-console',
    })
    const reads = { n: 0 }
    const like: ConfLike = {
      get store() {
        reads.n++
        return conf.store
      },
      set store(v) {
        conf.store = v
      },
      get: (k) => conf.get(k),
      set: (k, v) => conf.set(k, v),
      path: conf.path,
    }
    return { conf, like, reads, dir: d }
  }

  it('keeps what it wrote as the cached document: reads after its own write do not parse the file again', () => {
    const { like, reads, dir } = countingConf()
    const s = cachedSettingsStore(like)
    expect(s.get('environments')).toEqual([])
    expect(reads.n).toBe(1)
    s.set('environments', [env])
    s.set('clients', [])
    expect(s.get('environments')).toEqual([env])
    expect(s.get('clients')).toEqual([])
    expect(reads.n).toBe(1)
    // What it holds is what is on disk.
    expect(JSON.parse(readFileSync(join(dir, 'ob-console.json'), 'utf8'))).toEqual({
      environments: [env],
      clients: [],
      tpps: [],
    })
    expect(createFileSettingsStore(dir).get('environments')).toEqual([env])
    // The value handed to set is the cached one, so it is frozen.
    expect(Object.isFrozen(s.get('environments')[0])).toBe(true)
  })

  it('reads the file again once another writer changed it, and writes over that version, not its own', () => {
    const { like, reads, dir } = countingConf()
    const s = cachedSettingsStore(like)
    s.get('environments')
    s.set('environments', [env])
    expect(reads.n).toBe(1)
    const other = createFileSettingsStore(dir)
    other.set('clients', [
      {
        clientId: 'c-1',
        environmentId: 'local',
        tppId: 't',
        authMethod: 'private_key_jwt',
        scope: 'openid accounts',
        redirectUris: ['https://app.example/cb'],
        registration: {},
        registeredAt: '2026-11-23T00:00:00.000Z',
      },
    ])
    s.set('environments', [env, { ...env, id: 'bank', builtIn: false }])
    expect(s.get('clients').map((c) => c.clientId)).toEqual(['c-1'])
    expect(s.get('environments').map((e) => e.id)).toEqual(['local', 'bank'])
    expect(other.get('clients').map((c) => c.clientId)).toEqual(['c-1'])
    // One more read of the whole file: after the other writer's version, none after its own write.
    expect(reads.n).toBe(2)
  })

  it('a refused write leaves the cache and the file as they were', () => {
    const { like, dir } = countingConf()
    const s = cachedSettingsStore(like)
    s.set('environments', [env])
    expect(() => s.set('environments', [{ ...env, kind: 'moon' as never }])).toThrow(/kind/)
    expect(s.get('environments')).toEqual([env])
    expect(createFileSettingsStore(dir).get('environments')).toEqual([env])
  })
})

describe('the records schemas', () => {
  // The validators skip the meta-schema check on every start; this is the check.
  it('are valid JSON Schemas (draft-07, as ajv compiles them)', () => {
    const ajv = new Ajv({ strict: false })
    for (const schema of Object.values(RECORD_SCHEMAS)) expect(ajv.validateSchema(schema), ajv.errorsText()).toBe(true)
  })

  it('are validated by the module built ahead (out/validators/records.cjs) when it was built from them', () => {
    // npm test builds out/ first (the unit project's global set-up), so the module is there and current.
    expect(recordValidator('settings')({ environments: [], tpps: [], clients: [] })).toBe(true)
    expect(recordValidatorsSource()).toBe('built')
  })

  it('the built module and the compiled validators agree, defaults included', () => {
    const built = loadStandaloneModule(recordValidatorsFile(findOpenApiDir()!), 'another digest')
    expect(built, 'a module built from other schemas is not used').toBeUndefined()
    const doc: Record<string, unknown> = { environments: [env] }
    expect(recordValidator('settings')(doc)).toBe(true)
    expect(doc).toEqual({ environments: [env], tpps: [], clients: [] })
    const bad = { environments: [{ ...env, kind: 'moon' }], tpps: [], clients: [] }
    const validate = recordValidator('settings')
    expect(validate(bad)).toBe(false)
    expect(recordProblems(validate.errors)).toMatch(/^environments\/0\/kind must be equal to one of the allowed values/)
  })
})
