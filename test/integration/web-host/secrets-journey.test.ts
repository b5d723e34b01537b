/**
 * Issue #13, item 1: a full onboard -> register -> AIS -> PIS journey through the web host, driven over its
 * HTTP contract as the renderer drives it, with every answer and every server-sent event recorded, plus
 * every export (curl and HAR of each exchange). The scan fails on any private key material in any
 * encoding and on any token or code that the test did not reveal explicitly (in the answers that reveal it).
 */
import type { ClientRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FlowState } from '../../../src-main/contract/flows.ts'
import type { ExchangeDto, SecretItemDto } from '../../../src-main/contract/exchange.ts'
import type { ExchangePage } from '../../../src-main/contract/exchange-summaries.ts'
import type { ConsoleRuntime } from '../../../src-main/cli/console-runtime.ts'
import type { RunningWebHost } from '../../../src-main/web-host/web-host.ts'
import { examplePayment } from '../../../src-main/flows/pis/pis-flow.ts'
import { ALL_ACCOUNTS_PERMISSIONS } from '../services/journey-support.ts'
import { openEventStream, startRuntimeHost, type RuntimeHost } from './support/runtime-host.ts'
import { exchangeSecrets, keyPieces, maskedByName, scan } from './support/secret-scan.ts'
import { readWebHostAnswer } from '../../support/web-host-answer.ts'

type Answer<T> =
  { ok: true; value: T } | { ok: false; error: { code: string; what: string; cause: string; fix: string } }

describe('secrets never leave the main side unmasked (web host journey)', () => {
  let rt: ConsoleRuntime
  let host: RunningWebHost
  let served: RuntimeHost | undefined
  let sse: ClientRequest
  let sseText = ''
  const recorded: Array<{ where: string; text: string; framed?: boolean }> = []

  async function call<T>(name: string, input?: unknown): Promise<Answer<T>> {
    const res = await fetch(`${host.origin}/api/call/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ob-console-token': host.token },
      body: JSON.stringify({ input }),
    })
    const { text, value, framed } = await readWebHostAnswer<Answer<T>>(res)
    const withReveal = (input as { reveal?: unknown } | undefined)?.reveal ? ' with reveal' : ''
    recorded.push({ where: `answer of ${name}${withReveal}`, text, framed })
    return value
  }
  async function ok<T>(name: string, input?: unknown): Promise<T> {
    const r = await call<T>(name, input)
    if (!r.ok) throw new Error(`${name}: ${r.error.code} ${r.error.what} ${r.error.cause}`)
    return r.value
  }

  beforeAll(async () => {
    served = await startRuntimeHost('secrets-journey-')
    ;({ rt, host } = served)
    sse = await openEventStream(host, (chunk) => {
      sseText += chunk
    })
  }, 60_000)

  afterAll(async () => {
    sse?.destroy()
    await served?.stop()
  })

  it('onboard, register, AIS and PIS: no private key anywhere, no token or code unmasked except the one revealed', async () => {
    const env = await ok<{ id: string }>('environments.startLocalSandbox')
    const tpp = await ok<{ id: string }>('tpps.onboardLocal', { environmentId: env.id })
    const defaults = await ok<Record<string, unknown>>('registration.defaults', {
      environmentId: env.id,
      tppId: tpp.id,
    })
    // Two clients: private_key_jwt (assertions on the wire) and client_secret_basic (a client secret in the registration response).
    const { client } = await ok<{ client: { clientId: string } }>('registration.register', {
      environmentId: env.id,
      tppId: tpp.id,
      form: {
        ...defaults,
        tokenEndpointAuthMethod: 'private_key_jwt',
        requestObjectSigningAlg: 'PS256',
        extraClaims: { sandbox_profile: 'strict-headless' },
      },
    })
    const basic = await ok<{ client: { clientId: string; hasSecret: boolean } }>('registration.register', {
      environmentId: env.id,
      tppId: tpp.id,
      form: {
        ...defaults,
        tokenEndpointAuthMethod: 'client_secret_basic',
        requestObjectSigningAlg: 'none',
        extraClaims: { sandbox_profile: 'permissive-headless' },
      },
    })
    expect(basic.client.hasSecret).toBe(true)

    const ais = await ok<FlowState>('flows.start', {
      kind: 'ais',
      environmentId: env.id,
      clientId: client.clientId,
      permissions: ALL_ACCOUNTS_PERMISSIONS,
      psuPresent: true,
      capture: 'headless',
      authorisationUrlFrom: 'request-object',
    })
    const aisDone = await ok<FlowState>('flows.runAll', { flowId: ais.id })
    expect(aisDone.steps.filter((s) => s.status === 'failed')).toEqual([])
    const pay = examplePayment()
    const pis = await ok<FlowState>('flows.start', {
      kind: 'pis',
      environmentId: env.id,
      clientId: basic.client.clientId,
      ...pay,
      capture: 'headless',
      authorisationUrlFrom: 'o3-helper',
    })
    const pisDone = await ok<FlowState>('flows.runAll', { flowId: pis.id })
    expect(pisDone.steps.filter((s) => s.status === 'failed')).toEqual([])
    await ok('flows.list')
    await ok('flows.get', { flowId: ais.id })
    await ok('clients.list', {})
    await ok('tpps.list')
    await ok('ais.accountData', { flowId: ais.id })

    // Every exchange, and its exports.
    const page = await ok<ExchangePage>('exchanges.list', { limit: 5000 })
    expect(page.total).toBeGreaterThan(30)
    const views = new Map<string, ExchangeDto>()
    for (const item of page.items) {
      views.set(item.id, await ok<ExchangeDto>('exchanges.get', { id: item.id }))
      await ok('exchanges.export', { id: item.id, format: 'curl' })
      await ok('exchanges.export', { id: item.id, format: 'har' })
    }
    // The whole log as one HAR and one Postman collection, scanned like every other answer.
    await ok('exchanges.har', {})
    await ok('exchanges.postman', { name: 'journeys' })

    // The starter kit's keys are listed as removed, and no Reveal gives them.
    const kit = page.items.find((i) => i.label?.includes('starter kit'))!
    const keyItems = views.get(kit.id)!.secrets!.filter((s) => s.kind === 'private-key')
    expect(keyItems.map((s) => s.name).sort()).toEqual(['signingKeyPem', 'transportKeyPem'])
    for (const k of keyItems) {
      const refused = await call('secrets.reveal', { exchangeId: kit.id, ref: k.ref })
      expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
    }

    // Reveal one item explicitly: the Bearer token of the AIS accounts call. The answer carries it, and a view
    // asked with its ref; the exchange's plain view, its curl and HAR stay masked (the main side keeps no Reveal).
    const accounts = page.items.find((i) => i.flowId === ais.id && i.label === 'accounts')!
    const bearer = views.get(accounts.id)!.secrets!.find((s: SecretItemDto) => s.name === 'authorization')!
    expect(bearer.shown).toMatch(/^.{8}….{8}$/)
    const revealed = await ok<{ value: string }>('secrets.reveal', { exchangeId: accounts.id, ref: bearer.ref })
    const shown = await ok<ExchangeDto>('exchanges.get', { id: accounts.id, reveal: [bearer.ref] })
    expect(shown.request.headers).toContainEqual(['authorization', `Bearer ${revealed.value}`])
    expect(JSON.stringify(await ok('exchanges.get', { id: accounts.id }))).not.toContain(revealed.value)
    for (const format of ['curl', 'har'])
      expect(await ok<string>('exchanges.export', { id: accounts.id, format })).not.toContain(revealed.value)
    // The same token elsewhere (the code exchange's response) is still masked: reveal is per exchange.
    const codeExchange = page.items.find((i) => i.flowId === ais.id && i.label === 'token (authorization_code)')!
    expect(JSON.stringify(await ok('exchanges.get', { id: codeExchange.id }))).not.toContain(revealed.value)
    // In a flow: reveal the code-exchange step's access token (the same value); the flow's state stays masked.
    const step = (await ok<FlowState>('flows.get', { flowId: ais.id })).steps.find((s) => s.id === 'code-exchange')!
    const stepToken = step.secrets!.find((s) => s.name === 'accessToken')!
    expect((await ok<{ value: string }>('secrets.reveal', { flowId: ais.id, ref: stepToken.ref })).value).toBe(
      revealed.value,
    )
    expect(JSON.stringify(await ok<FlowState>('flows.get', { flowId: ais.id }))).not.toContain(revealed.value)
    // Exports made after the Reveals: masked.
    for (const [name, input] of [
      ['exchanges.har', {}],
      ['exchanges.postman', { name: 'after the reveal' }],
    ] as const)
      expect(await ok<string>(name, input)).not.toContain(revealed.value)

    // Let the last events arrive (bounded).
    for (let i = 0; i < 40 && !sseText.includes(pisDone.steps.at(-1)!.id); i++)
      await new Promise((r) => setTimeout(r, 25))
    recorded.push({ where: 'the event stream', text: sseText })
    expect(sseText).toContain('flows.onDidProgress')

    // Ground truth, read on the main side: the keys held, and every token, code and credential on the wire.
    const material = await rt.services.tpps.material(tpp.id)
    const keys = [...keyPieces(material.transport!.keyPem), ...keyPieces(material.signing!.key)]
    const secrets = new Set<string>()
    for (const item of page.items) exchangeSecrets(rt.services.http.exchanges.raw(item.id), secrets)
    const clientSecret = await rt.services.registration.secret(basic.client.clientId)
    expect(clientSecret).toBeTruthy()
    secrets.add(clientSecret!)
    // Not a vacuous scan: tokens of both flows, codes, assertions, the refresh token; answers of both forms
    // (the views of the transactions pages are framed: their bodies travel beside the JSON).
    expect(secrets.size).toBeGreaterThan(10)
    expect(recorded.some((r) => r.framed)).toBe(true)
    expect(secrets.has(revealed.value)).toBe(true)
    // The revealed token only in the answers that reveal it: every other answer, event and export is masked.
    const revealing = (r: { where: string }) =>
      r.where === 'answer of secrets.reveal' || r.where.endsWith(' with reveal')
    // Two refusals (the kit's keys), the exchange's and the flow's Reveal, the one view asked with the ref.
    expect(recorded.filter(revealing)).toHaveLength(5)
    scan(recorded.filter(revealing), keys, secrets, new Set([revealed.value]))
    scan(
      recorded.filter((r) => !revealing(r)),
      keys,
      secrets,
      new Set(),
    )
    // And by name, without knowing values: every secret-named value in what crossed is masked (the revealed token aside).
    const seen = recorded.reduce(
      (n, r) => n + maskedByName(r.text.split(revealed.value).join('abcdefgh…12345678'), r.where),
      0,
    )
    expect(seen).toBeGreaterThan(50)
  }, 180_000)
})
