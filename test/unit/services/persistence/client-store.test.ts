import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createFileClientStore } from '../../../../src-main/services/persistence/client-store.ts'
import type { ClientRecord } from '../../../../src-main/services/persistence/settings-schema.ts'
import { createFileSettingsStore } from '../../../../src-main/services/persistence/settings-store.ts'

const client = (clientId: string, registeredAt: string, extra: Partial<ClientRecord> = {}): ClientRecord => ({
  clientId,
  environmentId: 'local',
  tppId: 'tpp-1',
  authMethod: 'private_key_jwt',
  scope: 'openid accounts payments',
  redirectUris: ['https://app.example/cb'],
  registration: { client_id: clientId, software_statement: 'eyJ.eyJ.sig' },
  registeredAt,
  ...extra,
})

describe('file client store', () => {
  const dirs: string[] = []
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'clients-'))
    dirs.push(d)
    return d
  }
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })))

  it('keeps one file per client, lists them in registration order, and reads them back in a new store', () => {
    const d = join(dir(), 'clients')
    const s = createFileClientStore(d)
    expect(s.list()).toEqual([])
    s.put(client('c-2', '2026-11-23T10:00:02.000Z'))
    s.put(client('c-1', '2026-11-23T10:00:01.000Z'))
    expect(s.list().map((c) => c.clientId)).toEqual(['c-1', 'c-2'])
    expect(s.get('c-2')).toEqual(client('c-2', '2026-11-23T10:00:02.000Z'))
    const files = readdirSync(d)
    expect(files).toHaveLength(2)
    expect(files.every((f) => /^[0-9a-f]{32}\.json$/.test(f))).toBe(true)
    if (process.platform !== 'win32') expect(statSync(join(d, files[0]!)).mode & 0o777).toBe(0o600)
    // A record is frozen once stored; a read without a change gives the same list.
    expect(Object.isFrozen(s.get('c-1')!.registration)).toBe(true)
    expect(s.list()).toBe(s.list())
    expect(
      createFileClientStore(d)
        .list()
        .map((c) => c.clientId),
    ).toEqual(['c-1', 'c-2'])
  })

  it('replaces a client on a second put and deletes it', () => {
    const s = createFileClientStore(join(dir(), 'clients'))
    s.put(client('c-1', '2026-11-23T10:00:01.000Z'))
    s.put(client('c-1', '2026-11-23T10:00:01.000Z', { scope: 'openid accounts' }))
    expect(s.list()).toHaveLength(1)
    expect(s.get('c-1')!.scope).toBe('openid accounts')
    s.delete('c-1')
    expect(s.get('c-1')).toBeUndefined()
    expect(readdirSync(s.dir)).toEqual([])
  })

  it("sees another process's registration and deletion at the next read", () => {
    const d = join(dir(), 'clients')
    const mine = createFileClientStore(d)
    const other = createFileClientStore(d)
    mine.put(client('c-1', '2026-11-23T10:00:01.000Z'))
    other.put(client('c-2', '2026-11-23T10:00:02.000Z'))
    expect(mine.list().map((c) => c.clientId)).toEqual(['c-1', 'c-2'])
    other.delete('c-1')
    expect(mine.get('c-1')).toBeUndefined()
    mine.put(client('c-3', '2026-11-23T10:00:03.000Z'))
    expect(other.list().map((c) => c.clientId)).toEqual(['c-2', 'c-3'])
  })

  it('refuses to save a record that is not a client, naming what is wrong, and writes nothing', () => {
    const s = createFileClientStore(join(dir(), 'clients'))
    const err = (() => {
      try {
        s.put({ ...client('c-1', '2026-11-23T10:00:01.000Z'), authMethod: 'client_secret_jwt' as never })
      } catch (e) {
        return e as { code: string; cause: string }
      }
    })()
    expect(err).toMatchObject({ code: 'STORE_ERROR' })
    expect(err!.cause).toMatch(/authMethod/)
    expect(readdirSync(s.dir)).toEqual([])
    // tls_client_auth (RFC 8705) is a method a bank may register a client with, and is kept.
    s.put({ ...client('c-2', '2026-11-23T10:00:02.000Z'), authMethod: 'tls_client_auth' })
    expect(s.get('c-2')?.authMethod).toBe('tls_client_auth')
  })

  it('never skips or overwrites a file it cannot read: reading fails naming the file, which stays as it was', () => {
    const d = join(dir(), 'clients')
    const s = createFileClientStore(d)
    s.put(client('c-1', '2026-11-23T10:00:01.000Z'))
    writeFileSync(join(d, 'broken.json'), '{ "clientId": ')
    expect(() => createFileClientStore(d).list()).toThrow(/broken\.json could not be read/)
    expect(() => createFileClientStore(d).list()).toThrow(
      expect.objectContaining({
        name: 'AppError',
        code: 'STORE_ERROR',
        fix: expect.stringContaining(`move it out of ${d}`),
        details: { path: join(d, 'broken.json') },
      }),
    )
    writeFileSync(join(d, 'broken.json'), JSON.stringify({ clientId: 'x' }))
    expect(() => s.list()).toThrow(/broken\.json is not a client record.*required property/)
    expect(readFileSync(join(d, 'broken.json'), 'utf8')).toBe(JSON.stringify({ clientId: 'x' }))
  })

  it('moves the clients an earlier version kept in the settings document, once, losing none', () => {
    const root = dir()
    const settings = createFileSettingsStore(root)
    settings.set('clients', [client('old-1', '2026-01-01T00:00:00.000Z'), client('old-2', '2026-01-02T00:00:00.000Z')])
    const d = join(root, 'clients')
    const s = createFileClientStore(d, { migrateFrom: settings })
    expect(s.list().map((c) => c.clientId)).toEqual(['old-1', 'old-2'])
    expect(settings.get('clients')).toEqual([])
    expect(createFileSettingsStore(root).get('clients')).toEqual([])
    // A crash after the files were written but before the settings were emptied: opening again moves
    // nothing twice and keeps a client changed since.
    const again = createFileSettingsStore(root)
    again.set('clients', [client('old-1', '2026-01-01T00:00:00.000Z')])
    s.put(client('old-1', '2026-01-01T00:00:00.000Z', { scope: 'openid payments' }))
    const reopened = createFileClientStore(d, { migrateFrom: again })
    expect(reopened.list().map((c) => c.clientId)).toEqual(['old-1', 'old-2'])
    expect(reopened.get('old-1')!.scope).toBe('openid payments')
    expect(again.get('clients')).toEqual([])
  })
})
