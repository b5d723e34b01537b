import { generateKeyPairSync } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ENVIRONMENT_FILE_FORMAT,
  exportEnvironmentFile,
  importEnvironmentFile,
  parseEnvironmentFile,
} from '../../../src-main/services/environment-file.ts'
import { createFileClientStore } from '../../../src-main/services/persistence/client-store.ts'
import { RegistrationService } from '../../../src-main/services/registration-service.ts'
import { ORG_ID, SOFTWARE_ID, ssaClaims, testPki, unsignedJwt, type TestPki } from '../certificates/pki-fixture.ts'
import { removeTempStores, tempTppsService } from './support/temp-stores.ts'

let pki: TestPki
beforeAll(async () => {
  pki = await testPki()
})
afterAll(removeTempStores)

function services() {
  const { dir: d, envs: environments, tpps, secrets, clock } = tempTppsService('envfile-')
  const registration = new RegistrationService(
    createFileClientStore(join(d, 'store', 'clients')),
    secrets,
    environments,
    tpps,
    async () => {
      throw new Error('no network here')
    },
    async () => 'unused',
    clock,
  )
  return { dir: d, environments, tpps, registration, secrets }
}

function writeKit(dir: string, file: Record<string, unknown>): string {
  const kit = join(dir, 'team-env')
  mkdirSync(join(kit, 'certs'), { recursive: true })
  writeFileSync(join(kit, 'certs/transport.pem'), pki.transport.certPem)
  writeFileSync(join(kit, 'certs/transport.key'), pki.transport.keyPem)
  const signing = generateKeyPairSync('rsa', { modulusLength: 2048 })
  writeFileSync(join(kit, 'certs/signing.key'), signing.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string)
  writeFileSync(join(kit, 'ssa.jwt'), unsignedJwt(ssaClaims()))
  writeFileSync(join(kit, 'bank-ca.pem'), pki.root.certPem)
  const path = join(kit, 'bank-sandbox.json')
  writeFileSync(path, JSON.stringify(file, null, 2))
  return path
}

const base = {
  format: ENVIRONMENT_FILE_FORMAT,
  name: 'Bank sandbox',
  kind: 'bank-sandbox',
  baseUrl: 'https://ob.bank.example',
  authUrl: 'https://auth.bank.example',
  tls: { verify: 'exact-ca', caFile: 'bank-ca.pem' },
  identity: {
    name: 'Budget app',
    transport: { certificateFile: 'certs/transport.pem', keyFile: 'certs/transport.key' },
    signing: { keyFile: 'certs/signing.key', kid: 'sig-kid-1' },
    softwareStatementFile: 'ssa.jwt',
    redirectUris: ['https://app.example/cb'],
  },
  client: { clientId: 'client-123', authMethod: 'client_secret_basic', secretEnv: 'TEST_CLIENT_SECRET' },
}

describe('environment files', () => {
  it('imports addresses, CA, identity (keys into the encrypted store, paths relative to the file) and the client; again without duplicates', async () => {
    const s = services()
    const path = writeKit(s.dir, base)
    const first = await importEnvironmentFile(path, { ...s, processEnv: { TEST_CLIENT_SECRET: 'the-secret' } })
    expect(first.environment).toMatchObject({
      name: 'Bank sandbox',
      kind: 'bank-sandbox',
      baseUrl: 'https://ob.bank.example',
      tlsVerification: 'exact-ca',
    })
    expect(first.environment.caBundlePem).toContain('BEGIN CERTIFICATE')
    const tpp = s.tpps.list().find((t) => t.id === first.tppId)!
    expect(tpp).toMatchObject({ name: 'Budget app', orgId: ORG_ID, softwareId: SOFTWARE_ID })
    expect(tpp.signing?.kid).toBe('sig-kid-1')
    expect(s.registration.record('client-123')).toMatchObject({
      environmentId: first.environment.id,
      authMethod: 'client_secret_basic',
    })
    expect(await s.registration.secret('client-123')).toBe('the-secret')
    for (const f of readdirSync(join(s.dir, 'secrets')))
      expect(readFileSync(join(s.dir, 'secrets', f), 'utf8')).not.toContain('PRIVATE KEY')
    const again = await importEnvironmentFile(path, { ...s, processEnv: { TEST_CLIENT_SECRET: 'the-secret' } })
    expect(again.environment.id).toBe(first.environment.id)
    expect(again.tppId).toBe(first.tppId)
    expect(s.environments.list().filter((e) => e.name === 'Bank sandbox')).toHaveLength(1)
  })

  it('refuses a private key or a secret inline with SECRET_INLINE, naming where and never the value', () => {
    const withKey = {
      ...base,
      identity: {
        ...base.identity,
        transport: {
          certificateFile: 'x.pem',
          keyPem: '-----BEGIN PRIVATE' + ' KEY-----\nAAAA\n-----END PRIVATE KEY-----',
        },
      },
    }
    const err = (() => {
      try {
        parseEnvironmentFile(JSON.stringify(withKey), 'env.json')
      } catch (e) {
        return e as { code: string; what: string }
      }
    })()
    expect(err).toMatchObject({ code: 'SECRET_INLINE' })
    expect(err!.what).toContain('identity.transport')
    expect(JSON.stringify(err)).not.toContain('AAAA')
    const inline = (() => {
      try {
        parseEnvironmentFile(JSON.stringify({ ...base, client: { clientId: 'c', secret: 'hunter2' } }), 'env.json')
      } catch (e) {
        return e as { code: string }
      }
    })()
    expect(inline).toMatchObject({ code: 'SECRET_INLINE' })
    expect(JSON.stringify(inline)).not.toContain('hunter2')
  })

  it('finds a key in any encoding and secrets by the names the redactor masks (one list, core/secret-names.ts)', () => {
    const refused = (f: unknown) => {
      try {
        parseEnvironmentFile(JSON.stringify(f), 'env.json')
      } catch (e) {
        return e as { code: string; what: string }
      }
      return undefined
    }
    const der = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'der', type: 'pkcs8' })
    // A base64 DER key under a harmless name: found by its content.
    const hidden = { ...base, notes: { backup: der.toString('base64') } }
    expect(refused(hidden)).toMatchObject({ code: 'SECRET_INLINE', what: expect.stringContaining('notes.backup') })
    // A token or a client secret in camelCase: found by the name.
    expect(refused({ ...base, client: { clientId: 'c', accessToken: 'abc' } })).toMatchObject({ code: 'SECRET_INLINE' })
    expect(refused({ ...base, client: { clientId: 'c', clientSecret: 'abc' } })).toMatchObject({
      code: 'SECRET_INLINE',
    })
    // The names of where secrets are kept are not secrets.
    expect(refused({ ...base, client: { clientId: 'c', secretEnv: 'OB_CLIENT_SECRET' } })?.code).not.toBe(
      'SECRET_INLINE',
    )
  })

  it('names what is wrong: format, kind, exact-ca without a CA file, a missing file, an unset variable', async () => {
    const bad = (f: unknown) => {
      try {
        parseEnvironmentFile(JSON.stringify(f), 'e.json')
        return undefined
      } catch (e) {
        return (e as { cause: string }).cause
      }
    }
    expect(bad({ ...base, format: 'x' })).toContain('format')
    expect(bad({ ...base, kind: 'local-sandbox' })).toContain('kind')
    expect(bad({ ...base, tls: { verify: 'exact-ca' } })).toContain('caFile')
    const s = services()
    const path = writeKit(s.dir, { ...base, identity: { ...base.identity, softwareStatementFile: 'missing.jwt' } })
    await expect(importEnvironmentFile(path, { ...s, processEnv: { TEST_CLIENT_SECRET: 'x' } })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      what: expect.stringContaining('missing.jwt'),
    })
    const path2 = writeKit(s.dir, base)
    await expect(importEnvironmentFile(path2, { ...s, processEnv: {} })).rejects.toMatchObject({
      what: expect.stringContaining('TEST_CLIENT_SECRET'),
    })
  })

  it('exports an environment as a file to commit: addresses and TLS, no keys or secrets', async () => {
    const s = services()
    const path = writeKit(s.dir, base)
    const { environment } = await importEnvironmentFile(path, {
      ...s,
      processEnv: { TEST_CLIENT_SECRET: 'the-secret' },
    })
    const out = exportEnvironmentFile(environment, { clientId: 'client-123' })
    expect(() => parseEnvironmentFile(JSON.stringify(out), 'out.json')).not.toThrow()
    expect(JSON.stringify(out)).not.toMatch(/PRIVATE KEY|the-secret/)
  })
})
