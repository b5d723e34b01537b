/**
 * A sandbox process on a PostgreSQL store is killed (SIGKILL) and a new one starts with an empty data
 * directory on the same store: the bank is the same (CA, directory key), so a TPP's starter kit from
 * before still works, and so do its registered client and the token it had (oidc-provider's models are in
 * the store too).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestPostgres, type TestPostgres } from '../../../support/postgres.ts'
import { TestTpp, type RegisteredTestClient, type TppKit } from '../support/test-tpp.ts'
import { ADMIN_HEADERS, startInstance, stopInstance, type Instance } from '../support/sandbox-instances.ts'

const AIS = '/open-banking/v4.0/aisp'

describe('a sandbox killed and started again with an empty data directory on the same store', () => {
  let cluster: TestPostgres
  let url: string
  const dirs: string[] = []
  let first: Instance
  let second: Instance
  let kit: TppKit
  let caPem: string
  let client: RegisteredTestClient
  let tokenBefore: string
  const tpps: TestTpp[] = []

  beforeAll(async () => {
    cluster = await startTestPostgres()
    url = cluster.createDatabase('restart')
    dirs.push(mkdtempSync(join(tmpdir(), 'ob-restart-1-')), mkdtempSync(join(tmpdir(), 'ob-restart-2-')))
    first = await startInstance(dirs[0]!, url)
    caPem = readFileSync(first.caBundlePath, 'utf8')
    const directory = new Agent({ connect: { ca: caPem } })
    const onboarded = await request(`${first.directoryUrl}/tpps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...ADMIN_HEADERS },
      body: JSON.stringify({ roles: ['AISP'] }),
      dispatcher: directory,
    })
    kit = (await onboarded.body.json()) as TppKit
    await directory.close()
    const before = new TestTpp({ ...first, caBundlePem: caPem }, kit)
    tpps.push(before)
    client = await before.register({ overrides: { scope: 'openid accounts' } })
    tokenBefore = await before.clientCredentials(client, 'accounts')

    await stopInstance(first, 'SIGKILL')
    expect(readdirSync(dirs[1]!)).toEqual([])
    second = await startInstance(dirs[1]!, url)
  }, 180_000)

  afterAll(async () => {
    await Promise.all(tpps.map((t) => t.close()))
    await Promise.all([stopInstance(first, 'SIGKILL'), stopInstance(second)])
    cluster?.stop()
    for (const d of dirs) rmSync(d, { recursive: true, force: true })
  })

  const after = () => {
    const tpp = new TestTpp({ ...second, caBundlePem: caPem }, kit)
    tpps.push(tpp)
    return tpp
  }

  it('serves the same CA: the bundle it writes is the one before, and the TLS trust made from it still holds', async () => {
    expect(second.caBundlePath).toBe(join(dirs[1]!, 'pki', 'ca-bundle.pem'))
    expect(readFileSync(second.caBundlePath, 'utf8')).toBe(caPem)
    // TLS to the new instance with the old bundle: its server certificate chains to the same CA.
    expect((await after().discovery()).issuer).toBe(second.authUrl)
  })

  it("accepts the TPP's old transport certificate and verifies its old SSA: a new registration succeeds", async () => {
    const again = await after().register({ overrides: { scope: 'openid accounts' } })
    expect(again.clientId).not.toBe(client.clientId)
  })

  it('the client registered before the kill gets a token with its old credentials, and its old token still works', async () => {
    const tpp = after()
    expect(await tpp.clientCredentials(client, 'accounts')).toBeTruthy()
    const consent = await tpp.call('POST', `${second.baseUrl}${AIS}/account-access-consents`, {
      headers: {
        authorization: `Bearer ${tokenBefore}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify({ Data: { Permissions: ['ReadAccountsBasic'] }, Risk: {} }),
    })
    expect(consent.status, consent.text).toBe(201)
  })
})
