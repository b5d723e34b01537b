import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createFileSettingsStore } from '../../../../src-main/services/persistence/settings-store.ts'
import type { EnvironmentRecord } from '../../../../src-main/services/persistence/settings-schema.ts'

const env: EnvironmentRecord = {
  id: 'local',
  name: 'Local sandbox',
  kind: 'local-sandbox',
  baseUrl: 'https://127.0.0.1:8443',
  authUrl: 'https://127.0.0.1:8444',
  apiPaths: { registration: '/dynamic-client-registration/v3.2/register', ais: '/open-banking/v4.0/aisp', pis: '/open-banking/v4.0/pisp', o3: '/o3/v1.0' },
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

  it('reads from a cache while the file is unchanged: values are frozen, own writes seen at once, another process\'s write at the next read', () => {
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
