/**
 * Two sandbox processes (the built command line) on one PostgreSQL store: the fault rules and the
 * conformance records live in the store, so the two behave as one bank. A rule added through one
 * instance's admin endpoint faults requests to the other, its `times` counted once across both; a
 * client's conformance report read from one includes the requests it made to the other.
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestPostgres, type TestPostgres } from '../../../support/postgres.ts'
import { ADMIN_HEADERS, startInstance, stopInstance, type Instance } from '../support/sandbox-instances.ts'
import { TestTpp, type RegisteredTestClient, type TppKit } from '../support/test-tpp.ts'

const AIS = '/open-banking/v4.0/aisp'
const CONSENTS = `${AIS}/account-access-consents`

describe('fault rules and conformance records shared by two sandbox processes on one PostgreSQL store', () => {
  let pg: TestPostgres
  let dataDir: string
  let a: Instance
  let b: Instance
  let tpp: TestTpp
  let client: RegisteredTestClient
  let admin: Agent
  let wide: Agent

  beforeAll(async () => {
    pg = await startTestPostgres()
    const storeUrl = pg.createDatabase('shared_faults')
    dataDir = mkdtempSync(join(tmpdir(), 'ob-shared-faults-'))
    a = await startInstance(dataDir, storeUrl)
    b = await startInstance(dataDir, storeUrl)
    const caPem = readFileSync(a.caBundlePath, 'utf8')
    admin = new Agent({ connect: { ca: caPem } })
    const onboarded = await request(`${a.directoryUrl}/tpps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...ADMIN_HEADERS },
      body: JSON.stringify({ roles: ['AISP'] }),
      dispatcher: admin,
    })
    const kit = (await onboarded.body.json()) as TppKit
    tpp = new TestTpp({ ...a, caBundlePem: caPem }, kit)
    client = await tpp.register({ overrides: { sandbox_profile: 'strict-headless', scope: 'openid accounts' } })
    wide = new Agent({ connect: { ca: caPem, cert: kit.transportCertPem, key: kit.transportKeyPem }, connections: 16 })
  }, 120_000)

  afterAll(async () => {
    await Promise.all([tpp?.close(), admin?.close(), wide?.close()])
    await Promise.all([stopInstance(a), stopInstance(b)])
    pg?.stop()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  const adminCall = async (i: Instance, method: string, path: string, body?: unknown) => {
    const res = await request(`${i.directoryUrl}${path}`, {
      method: method as 'GET',
      headers: body === undefined ? ADMIN_HEADERS : { 'content-type': 'application/json', ...ADMIN_HEADERS },
      body: body === undefined ? undefined : JSON.stringify(body),
      dispatcher: admin,
    })
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { status: res.statusCode, json: (await res.body.json()) as any }
  }

  const newConsent = (i: Instance, token: string, interactionId: string | null = randomUUID()) =>
    tpp.call('POST', `${i.baseUrl}${CONSENTS}`, {
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...(interactionId ? { 'x-fapi-interaction-id': interactionId } : {}),
      },
      body: JSON.stringify({ Data: { Permissions: ['ReadAccountsBasic'] }, Risk: {} }),
      agent: wide,
    })

  it('a rule added through A faults a request to B, once; A lists it as applied', async () => {
    const token = await tpp.clientCredentials(client, 'accounts')
    const created = await newConsent(a, token)
    expect(created.status, created.text).toBe(201)
    const path = `${CONSENTS}/${created.json.Data.ConsentId}`
    const added = await adminCall(a, 'POST', '/admin/faults', {
      id: 'b-once',
      origin: 'base',
      method: 'GET',
      path,
      times: 1,
      fault: { kind: 'status', status: 503, body: { fault: 'from the store' } },
    })
    expect(added.status).toBe(201)
    // Listing through B brings B's copy of the rules up to date before it answers.
    expect((await adminCall(b, 'GET', '/admin/faults')).json.rules.map((r: { id: string }) => r.id)).toEqual(['b-once'])
    const get = (i: Instance) =>
      tpp.call('GET', `${i.baseUrl}${path}`, {
        headers: { authorization: `Bearer ${token}`, 'x-fapi-interaction-id': randomUUID() },
        agent: wide,
      })
    const faulted = await get(b)
    expect(faulted.status).toBe(503)
    expect(faulted.json).toEqual({ fault: 'from the store' })
    // B's operator log names the fault (its stderr reaches this process a little after the answer).
    await expect.poll(() => b.stderr(), { timeout: 5000 }).toContain(`fault b-once (status) on base GET ${path}`)
    // times: 1, across both.
    expect((await get(a)).status).toBe(200)
    expect((await get(b)).status).toBe(200)
    const listed = (await adminCall(a, 'GET', '/admin/faults')).json.rules
    expect(listed).toMatchObject([{ id: 'b-once', seen: 1, hits: 1, exhausted: true }])
    expect((await adminCall(b, 'DELETE', '/admin/faults')).json).toEqual({ removed: 1 })
    expect((await adminCall(a, 'GET', '/admin/faults')).json.rules).toEqual([])
  })

  it('20 requests split across A and B at once with a times: 3 rule: exactly 3 are faulted', async () => {
    const token = await tpp.clientCredentials(client, 'accounts')
    await adminCall(b, 'PUT', '/admin/faults', {
      rules: [{ origin: 'base', method: 'POST', path: CONSENTS, times: 3, fault: { kind: 'status', status: 429 } }],
    })
    await adminCall(a, 'GET', '/admin/faults')
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => newConsent(i % 2 ? a : b, token)))
    const statuses = answers.map((r) => r.status)
    expect(statuses.filter((s) => s === 429)).toHaveLength(3)
    expect(statuses.filter((s) => s === 201)).toHaveLength(17)
    expect((await adminCall(a, 'GET', '/admin/faults')).json.rules).toMatchObject([{ seen: 3, hits: 3 }])
    await adminCall(a, 'DELETE', '/admin/faults')
  })

  it("a client's conformance report read from A includes the requests it made to B", async () => {
    // Each instance records behind its answers; a read on an instance waits for its own queue, so reading
    // B first settles the earlier tests' requests to it before the records are cleared.
    await adminCall(b, 'GET', '/admin/conformance')
    expect((await adminCall(a, 'DELETE', '/admin/conformance')).status).toBe(200)
    const token = await tpp.clientCredentials(client, 'accounts')
    expect((await newConsent(a, token)).status).toBe(201)
    // To B: no x-fapi-interaction-id, which the report records as a failure of the interaction id rule.
    expect((await newConsent(b, token, null)).status).toBe(201)
    // B's record of its request lands behind its answer: A sees it within moments (read until it does, 5 s at most).
    const path = `/admin/conformance?client_id=${encodeURIComponent(client.clientId)}`
    let report = await adminCall(a, 'GET', path)
    for (const started = Date.now(); report.json.requests !== 2 && Date.now() - started < 5000;) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      report = await adminCall(a, 'GET', path)
    }
    expect(report.status).toBe(200)
    expect(report.json.requests).toBe(2)
    const interaction = report.json.rules.find((r: { id: string }) => r.id === 'interaction-id')
    expect(interaction).toMatchObject({ passed: 1, failed: 1 })
    expect(interaction.lastFailures[0]).toMatchObject({ method: 'POST', path: CONSENTS, status: 201 })
    const listed = await adminCall(b, 'GET', '/admin/conformance')
    expect(listed.json.clients).toMatchObject([{ clientId: client.clientId, requests: 2, failed: 1 }])
  })
})
