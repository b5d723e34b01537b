import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SignJWT } from 'jose'
import type { ConsoleRuntime } from '../../../src-main/cli/console-runtime.ts'
import type { JwtCheckReportDto } from '../../../src-main/contract/diagnosis.ts'
import type { ExchangeSummaryDto } from '../../../src-main/contract/exchange-summaries.ts'
import {
  ALL_ACCOUNTS_PERMISSIONS,
  freshRuntime,
  ok,
  registeredClient,
  startFlow,
  stepStatuses,
} from './journey-support.ts'

const failed = (r: JwtCheckReportDto) => r.checks.filter((c) => !c.pass).map((c) => `${c.name}: ${c.actual}`)

describe('the inspector explains each exchange (diagnosis, JWT checks, a Reveal in one view only), against the local sandbox', () => {
  let rt: ConsoleRuntime
  let all: ExchangeSummaryDto[]
  let flowId: string
  let ids: { environmentId: string; clientId: string; tppId: string }

  beforeAll(async () => {
    rt = await freshRuntime()
    const h = rt.handlers
    ids = await registeredClient(h, 'strict-headless')
    const flow = await startFlow(h, {
      kind: 'ais',
      environmentId: ids.environmentId,
      clientId: ids.clientId,
      permissions: ALL_ACCOUNTS_PERMISSIONS,
      psuPresent: true,
      capture: 'headless',
      authorisationUrlFrom: 'request-object',
    })
    flowId = flow.id
    const state = ok(await h['flows.runAll']({ flowId }))
    expect(Object.values(stepStatuses(state))).toEqual(Array(state.steps.length).fill('done'))
    all = ok(await h['exchanges.list']({ limit: 5000 })).items
  }, 120_000)
  afterAll(async () => {
    await rt?.stop()
  })

  const reportsOf = async (id: string) => ok(await rt.handlers['exchanges.checkJwts']({ id })).reports

  it("verifies the registration JWT with the TPP key and its software statement with the directory's JWKS", async () => {
    const registration = all.find((x) => x.method === 'POST' && /\/register$/.test(x.path))!
    const reports = await reportsOf(registration.id)
    const reg = reports.find((r) => r.role === 'registration')!
    const ssa = reports.find((r) => r.role === 'software-statement')!
    expect(reg.keySource).toMatch(/^the TPP's public signing key \(kid .+\)$/)
    expect(reg.checks[0]).toMatchObject({ name: 'signature', pass: true })
    expect(failed(reg)).toEqual([])
    expect(ssa.keySource).toMatch(/^the directory's JWKS at https:\/\/127\.0\.0\.1:\d+\/jwks$/)
    expect(ssa.checks[0]).toMatchObject({ name: 'signature', pass: true })
    expect(failed(ssa)).toEqual([])
  })

  it("verifies the flow's request object, client assertions and ID token, each with its own key and rules", async () => {
    const roles = new Map<string, JwtCheckReportDto[]>()
    for (const x of all.filter((e) => e.flowId === flowId)) {
      for (const r of await reportsOf(x.id)) roles.set(r.role, [...(roles.get(r.role) ?? []), r])
    }
    for (const role of ['request-object', 'client-assertion', 'id-token'] as const) {
      const found = roles.get(role) ?? []
      expect(found.length, role).toBeGreaterThan(0)
      for (const r of found) {
        expect(r.error, `${role} at ${r.location}`).toBeUndefined()
        expect(
          r.checks.find((c) => c.name === 'signature'),
          role,
        ).toMatchObject({ pass: true })
        expect(failed(r), `${role} at ${r.location}`).toEqual([])
      }
    }
    expect(roles.get('id-token')![0]!.keySource).toMatch(/^the bank's JWKS at https:\/\/127\.0\.0\.1:\d+\//)
    // The bank's discovery and JWKS were read once for all these checks (kept five minutes), each read logged as an exchange.
    const reads = ok(await rt.handlers['exchanges.list']({ pathContains: 'inspector JWT checks', limit: 5000 })).items
    expect(reads.map((r) => r.label).sort()).toEqual([
      'JWKS (inspector JWT checks)',
      'JWKS (inspector JWT checks)',
      'discovery (inspector JWT checks)',
    ])
    expect(roles.get('request-object')![0]!.keySource).toMatch(/TPP's public signing key/)
  })

  it('fails the signature of a tampered client assertion the bank refused, and diagnoses the refusal', async () => {
    const s = rt.services
    const env = s.environments.get(ids.environmentId)
    const material = await s.tpps.material(ids.tppId)
    const tokenEndpoint = `${env.authUrl}/token`
    const discovery = await s.http
      .forIdentity(env, undefined, {})
      .send({ method: 'GET', url: `${env.authUrl}/.well-known/openid-configuration`, label: 'discovery (test)' })
    const endpoint = (discovery.json as { token_endpoint?: string }).token_endpoint ?? tokenEndpoint
    const now = Math.floor(Date.now() / 1000)
    const signed = await new SignJWT({ jti: `t-${now}` })
      .setProtectedHeader({ alg: 'PS256', kid: material.signing!.kid, typ: 'JWT' })
      .setIssuer(ids.clientId)
      .setSubject(ids.clientId)
      .setAudience(endpoint)
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(material.signing!.key)
    const [head, payload, signature] = signed.split('.')
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>
    const tampered = [
      head,
      Buffer.from(JSON.stringify({ ...claims, jti: 'changed' })).toString('base64url'),
      signature,
    ].join('.')
    const res = await s.http.forIdentity(env, material.transport, { tppId: ids.tppId }).send({
      method: 'POST',
      url: endpoint,
      label: 'token (tampered assertion)',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        scope: 'accounts',
        client_id: ids.clientId,
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: tampered,
      }).toString(),
    })
    expect(res.status).toBeGreaterThanOrEqual(400)
    const x = ok(await rt.handlers['exchanges.get']({ id: res.exchangeId }))
    expect(x.diagnosis).toMatchObject({
      outcome: 'failed',
      error: { code: 'OAUTH_ERROR', problems: [{ code: 'invalid_client' }] },
    })
    expect(x.diagnosis!.spec.map((r) => r.document)).toContain('RFC 7523')
    const [assertion] = await reportsOf(res.exchangeId)
    expect(assertion).toMatchObject({ role: 'client-assertion' })
    expect(assertion!.checks.find((c) => c.name === 'signature')).toMatchObject({
      pass: false,
      actual: expect.stringMatching(/does not match/),
    })
  })

  it('a success is diagnosed ok; a Reveal reaches the view asked with it, never curl, HAR or Postman', async () => {
    const h = rt.handlers
    const accounts = all.find((x) => x.flowId === flowId && x.method === 'GET' && /\/aisp\/accounts$/.test(x.path))!
    const before = ok(await h['exchanges.get']({ id: accounts.id }))
    expect(before.diagnosis).toMatchObject({ outcome: 'ok', spec: [] })
    const bearer = before.secrets!.find((i) => i.name === 'authorization')!
    const { value } = ok(await h['secrets.reveal']({ exchangeId: accounts.id, ref: bearer.ref }))
    const shown = ok(await h['exchanges.get']({ id: accounts.id, reveal: [bearer.ref] }))
    expect(shown.request.headers.find(([k]) => k.toLowerCase() === 'authorization')?.[1]).toBe(`Bearer ${value}`)
    expect(shown.diagnosis).toEqual(before.diagnosis)
    expect(ok(await h['exchanges.get']({ id: accounts.id }))).toEqual(before)
    expect(ok(await h['exchanges.export']({ id: accounts.id, format: 'curl' }))).toContain(
      `authorization: Bearer ${bearer.shown}`,
    )
    for (const text of [
      ok(await h['exchanges.export']({ id: accounts.id, format: 'curl' })),
      ok(await h['exchanges.export']({ id: accounts.id, format: 'har' })),
      ok(await h['exchanges.postman']({ flowId, pathContains: '/aisp/accounts' })),
      ok(await h['exchanges.har']({ flowId })),
    ])
      expect(text).not.toContain(value)

    // A token in a response body: the body of the view asked with its ref shows it; the HAR does not.
    const token = all.find(
      (x) => x.flowId === flowId && x.method === 'POST' && /\/token$/.test(x.path) && x.status === 200,
    )!
    const tokenView = ok(await h['exchanges.get']({ id: token.id }))
    const access = tokenView.secrets!.find((i) => i.name === 'access_token')!
    const revealed = ok(await h['secrets.reveal']({ exchangeId: token.id, ref: access.ref })).value
    expect(tokenView.response!.body!.text).not.toContain(revealed)
    expect(ok(await h['exchanges.get']({ id: token.id, reveal: [access.ref] })).response!.body!.text).toContain(
      revealed,
    )
    expect(ok(await h['exchanges.export']({ id: token.id, format: 'har' }))).not.toContain(revealed)
    // Another exchange of the same token is not revealed by it.
    expect(
      JSON.stringify(
        ok(await h['exchanges.get']({ id: all.find((x) => x.flowId === flowId && /\/balances$/.test(x.path))!.id }))
          .request.headers,
      ),
    ).not.toContain(revealed)
  })
})
