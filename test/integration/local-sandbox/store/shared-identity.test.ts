/**
 * One bank on a PostgreSQL store: two sandboxes with different empty data directories, started at once
 * on an empty database, create one identity (one CA, one authorisation-server key, one directory key,
 * one set of cookie keys) and serve it alike; a TPP onboarded on one is known on the other at once, and
 * a client registered on one is served by the other.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import pg from 'pg'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLocalSandbox, type RunningSandbox } from '../../../../src-main/local-sandbox/index.ts'
import { startTestPostgres, type TestPostgres } from '../../../support/postgres.ts'
import { selfSigned, withCertificate } from '../support/self-signed.ts'
import { TestTpp, type TppKit } from '../support/test-tpp.ts'

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => statSync(join(dir, f)).isFile())
    .map((f) => relative(dir, join(dir, f)))
    .sort()
}

describe('two sandboxes on one PostgreSQL store serve one bank', () => {
  let cluster: TestPostgres
  let url: string
  const dirs = [mkdtempSync(join(tmpdir(), 'ob-identity-a-')), mkdtempSync(join(tmpdir(), 'ob-identity-b-'))]
  let a: RunningSandbox
  let b: RunningSandbox
  let plain: Agent
  const tpps: TestTpp[] = []

  beforeAll(async () => {
    cluster = await startTestPostgres()
    url = cluster.createDatabase('identity')
    const start = (dataDir: string) =>
      startLocalSandbox({ dataDir, port: 0, store: { kind: 'postgres', url }, log: () => {} })
    ;[a, b] = await Promise.all([start(dirs[0]!), start(dirs[1]!)])
    plain = new Agent({ connect: { ca: a.caBundlePem } })
  }, 120_000)

  afterAll(async () => {
    await Promise.all([...tpps.map((t) => t.close()), plain?.close()])
    await Promise.all([a?.stop(), b?.stop()])
    cluster?.stop()
    for (const d of dirs) rmSync(d, { recursive: true, force: true })
  })

  const getJson = async (url: string) => {
    const res = await request(url, { dispatcher: plain })
    expect(res.statusCode).toBe(200)
    return res.body.json() as Promise<Record<string, unknown>>
  }

  async function onboardOn(s: RunningSandbox): Promise<TppKit> {
    const res = await request(`${s.directoryUrl}/tpps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ roles: ['AISP', 'PISP'] }),
      dispatcher: plain,
    })
    expect(res.statusCode).toBe(201)
    return (await res.body.json()) as TppKit
  }

  const tppOn = (s: RunningSandbox, kit: TppKit) => {
    const tpp = new TestTpp({ ...s, caBundlePem: s.caBundlePem }, kit)
    tpps.push(tpp)
    return tpp
  }

  it('started at once on an empty store, they made one CA: the same bundle, and one row per bank document', async () => {
    expect(b.caBundlePem).toBe(a.caBundlePem)
    expect(a.caBundlePem.match(/BEGIN CERTIFICATE/g)).toHaveLength(2)
    for (const s of [a, b]) {
      expect(s.caBundlePath).toBe(join(s.dataDir, 'pki', 'ca-bundle.pem'))
      expect(readFileSync(s.caBundlePath, 'utf8')).toBe(s.caBundlePem)
    }
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    const names = (await client.query<{ name: string }>('SELECT name FROM bank_documents ORDER BY name')).rows
    await client.end()
    expect(names.map((r) => r.name)).toEqual([
      'auth/cookie-keys.json',
      'auth/signing-key.json',
      'directory/signing-key.json',
      'pki/ca-bundle.pem',
      'pki/issuing-ca.key',
      'pki/issuing-ca.pem',
      'pki/root-ca.key',
      'pki/root-ca.pem',
      'pki/server.key',
      'pki/server.pem',
      'state/ais-history.json',
    ])
  })

  it('serve the same authorisation server JWKS and the same directory JWKS', async () => {
    const jwksUri = (s: RunningSandbox) => getJson(`${s.authUrl}/.well-known/openid-configuration`)
    const [da, db] = await Promise.all([jwksUri(a), jwksUri(b)])
    const [ja, jb] = await Promise.all([getJson(da.jwks_uri as string), getJson(db.jwks_uri as string)])
    expect(ja.keys).toHaveLength(1)
    expect(jb).toEqual(ja)
    const [dirA, dirB] = await Promise.all([getJson(`${a.directoryUrl}/jwks`), getJson(`${b.directoryUrl}/jwks`)])
    expect(dirA.keys).toHaveLength(1)
    expect(dirB).toEqual(dirA)
  })

  it('keep no private key in their data directories: the CA bundle and the running marker are all there is', () => {
    for (const dir of dirs) {
      const files = filesUnder(dir)
      expect(files).toEqual([join('pki', 'ca-bundle.pem'), join('state', 'running.json')])
      for (const f of files) expect(readFileSync(join(dir, f), 'utf8'), f).not.toMatch(/PRIVATE KEY/)
    }
  })

  it('a TPP onboarded on A registers on B at once, over a self-signed copy of its transport certificate', async () => {
    const kit = await onboardOn(a)
    // B has never seen this software: its trust check and its SSA check read the store.
    const onB = tppOn(b, kit)
    const selfSignedOnB = withCertificate(onB, await selfSigned(onB))
    tpps.push(selfSignedOnB)
    const client = await selfSignedOnB.register({ overrides: { scope: 'openid accounts payments' } })
    expect(client.clientId).toBeTruthy()
    expect(await onB.clientCredentials(client, 'accounts')).toBeTruthy()
  })

  it('a client registered on B gets a token on A', async () => {
    const kit = await onboardOn(a)
    const client = await tppOn(b, kit).register({ overrides: { scope: 'openid accounts payments' } })
    expect(await tppOn(a, kit).clientCredentials(client, 'accounts')).toBeTruthy()
  })
})
