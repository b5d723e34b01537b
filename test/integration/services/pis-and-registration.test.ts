import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConsoleRuntime } from '../../../src-main/cli/console-runtime.ts'
import { examplePayment } from '../../../src-main/flows/pis/pis-flow.ts'
import { freshRuntime, ok, registeredClient, startFlow, stepStatuses } from './journey-support.ts'

describe('PIS and registration through the console engine, against the local sandbox', () => {
  let rt: ConsoleRuntime
  beforeAll(async () => {
    rt = await freshRuntime()
  })
  afterAll(async () => {
    await rt?.stop()
  })

  it('PIS headless: signed consent, funds, signed payment, then the status followed to ACSC as the sandbox clock moves', async () => {
    const h = rt.handlers
    const { environmentId, clientId } = await registeredClient(h, 'strict-headless')
    const pay = examplePayment()
    const flow = await startFlow(h, {
      kind: 'pis',
      environmentId,
      clientId,
      ...pay,
      capture: 'headless',
      authorisationUrlFrom: 'request-object',
    })
    const upToPayment = ok(await h['flows.runAll']({ flowId: flow.id, until: 'domestic-payment' }))
    expect(stepStatuses(upToPayment)).toMatchObject({
      'payment-consent': 'done',
      'funds-confirmation': 'done',
      'domestic-payment': 'done',
      'payment-status': 'idle',
    })
    const consent = upToPayment.steps.find((s) => s.id === 'payment-consent')!
    // The bank's response signature was verified against its JWKS.
    expect(consent.checks.filter((c) => c.name.startsWith('response ')).every((c) => c.pass)).toBe(true)
    expect(consent.checks.some((c) => c.name === 'response signature' && c.pass)).toBe(true)
    // The request the console sent carried a detached JWS and an idempotency key.
    const exchanges = await Promise.all(consent.exchangeIds.map(async (id) => ok(await h['exchanges.get']({ id }))))
    const consentExchange = exchanges.find((x) => x.request.url.endsWith('/domestic-payment-consents'))!
    expect(consentExchange.response?.status).toBe(201)
    const names = consentExchange.request.headers.map(([k]) => k.toLowerCase())
    expect(names).toEqual(expect.arrayContaining(['x-jws-signature', 'x-idempotency-key']))
    await rt.sandbox()!.context.clock.advance(11_000)
    const final = ok(await h['flows.runStep']({ flowId: flow.id, stepId: 'payment-status' }))
    const status = final.steps.find((s) => s.id === 'payment-status')!
    expect(status.status).toBe('done')
    expect(status.output).toMatchObject({ status: 'ACSC' })
  })

  it('a consent the bank rejects for two reasons: the failed step carries every error of Errors[] with its path', async () => {
    const h = rt.handlers
    const { environmentId, clientId } = await registeredClient(h, 'strict-headless')
    const pay = examplePayment()
    const initiation = {
      ...pay.initiation,
      InstructedAmount: { Amount: '10.999', Currency: 'GBP' },
      CreditorAccount: {
        ...(pay.initiation['CreditorAccount'] as object),
        SchemeName: 'UK.OBIE.SortCodeAccountNumber',
        Identification: '1234',
      },
    }
    const flow = await startFlow(h, {
      kind: 'pis',
      environmentId,
      clientId,
      initiation,
      risk: pay.risk,
      capture: 'headless',
      authorisationUrlFrom: 'request-object',
    })
    const state = ok(await h['flows.runAll']({ flowId: flow.id }))
    const consent = state.steps.find((s) => s.id === 'payment-consent')!
    expect(consent.status).toBe('failed')
    expect(consent.error?.problems?.map((p) => [p.code.split(' ')[0], p.path])).toEqual(
      expect.arrayContaining([
        ['U002', 'Data.Initiation.InstructedAmount.Amount'],
        ['U021', 'Data.Initiation.CreditorAccount.Identification'],
      ]),
    )
    expect(consent.error?.problems).toHaveLength(2)
  })

  it('re-running a payment step that was done pays nothing more: the same request and key get the same payment back', async () => {
    const h = rt.handlers
    const { environmentId, clientId } = await registeredClient(h, 'strict-headless')
    const flow = await startFlow(h, {
      kind: 'pis',
      environmentId,
      clientId,
      ...examplePayment(),
      capture: 'headless',
      authorisationUrlFrom: 'request-object',
    })
    const first = ok(await h['flows.runAll']({ flowId: flow.id, until: 'domestic-payment' })).steps.find(
      (s) => s.id === 'domestic-payment',
    )!
    const again = ok(await h['flows.runStep']({ flowId: flow.id, stepId: 'domestic-payment' }))
    const step = again.steps.find((s) => s.id === 'domestic-payment')!
    // A new key would be refused (409 U029: the consent is consumed); the first key is answered with the first payment.
    expect(step.status, JSON.stringify(step.error)).toBe('done')
    expect((step.output as { domesticPaymentId: string }).domesticPaymentId).toBe(
      (first.output as { domesticPaymentId: string }).domesticPaymentId,
    )
  })

  it('registration: the builder catches a wrong claim before sending; read, update and delete the client', async () => {
    const h = rt.handlers
    const env = ok(await h['environments.startLocalSandbox']())
    const tpp = ok(await h['tpps.onboardLocal']({ environmentId: env.id }))
    const defaults = ok(await h['registration.defaults']({ environmentId: env.id, tppId: tpp.id }))
    const before = ok(await h['exchanges.list']({ pathContains: '/register' })).total
    const wrong = ok(
      await h['registration.preview']({
        environmentId: env.id,
        tppId: tpp.id,
        form: { ...defaults, redirectUris: ['https://evil.example/cb'], scope: 'openid accounts banking' },
      }),
    )
    expect(wrong.valid).toBe(false)
    expect(
      wrong.checks
        .filter((c) => !c.pass)
        .map((c) => c.name)
        .sort(),
    ).toEqual(['redirect_uris', 'scope'])
    const refused = await h['registration.register']({
      environmentId: env.id,
      tppId: tpp.id,
      form: { ...defaults, iss: 'someone-else' },
    })
    expect(refused.ok).toBe(false)
    if (!refused.ok) expect(refused.error.code).toBe('CLAIMS_INVALID')
    expect(ok(await h['exchanges.list']({ pathContains: '/register' })).total).toBe(before)

    const good = ok(await h['registration.preview']({ environmentId: env.id, tppId: tpp.id, form: defaults }))
    expect(good.valid).toBe(true)
    expect(good.jwt?.split('.')).toHaveLength(3)
    // The JWT signs exactly the claims the preview shows, its jti and times included.
    expect(JSON.parse(Buffer.from(good.jwt!.split('.')[1]!, 'base64url').toString())).toEqual(good.claims)
    // As a console that has not talked to the bank for a while: no connection is open.
    await rt.services.http.dropConnections()
    const { client, exchangeId } = ok(
      await h['registration.register']({
        environmentId: env.id,
        tppId: tpp.id,
        form: { ...defaults, requestObjectSigningAlg: 'PS256', extraClaims: { sandbox_profile: 'strict-headless' } },
      }),
    )
    expect(client.registration.sandbox_profile).toBe('strict-headless')
    // Its connection (mutual TLS) was opened while discovery was read and the JWT signed: a new one, its TLS
    // facts this exchange's, the setup done before the request counted apart.
    const sent = ok(await h['exchanges.get']({ id: exchangeId }))
    expect(sent.reusedConnection).toBe(false)
    expect(sent.tls?.clientCertificateRequested).toBe(true)
    expect(sent.presentedCertificate?.sent).toBe(true)
    expect(sent.timings.preconnected).toBeGreaterThan(0)
    expect(ok(await h['registration.read']({ clientId: client.clientId })).client.scope).toBe(client.scope)
    const updated = ok(
      await h['registration.update']({
        clientId: client.clientId,
        form: {
          ...defaults,
          requestObjectSigningAlg: 'PS256',
          scope: 'openid accounts',
          extraClaims: { sandbox_profile: 'strict-headless' },
        },
      }),
    )
    expect(updated.client.scope).toBe('openid accounts')
    ok(await h['registration.delete']({ clientId: client.clientId }))
    expect(ok(await h['clients.list']({ environmentId: env.id })).some((c) => c.clientId === client.clientId)).toBe(
      false,
    )
  })

  it('client_secret_basic: the secret is stored encrypted, never returned, and used for tokens', async () => {
    const h = rt.handlers
    const { clientId } = await registeredClient(h, 'permissive-headless')
    const listed = ok(await h['clients.list']({})).find((c) => c.clientId === clientId)!
    expect(listed.hasSecret).toBe(true)
    expect(JSON.stringify(listed)).not.toMatch(/"client_secret":"[^(]/)
    expect(listed.registration.client_secret).toBe('(stored encrypted)')
  })

  it('PIS with the sandbox clock moved 2 hours ahead: every response signature still checks (the bank signs with wall time)', async () => {
    const h = rt.handlers
    const { environmentId, clientId } = await registeredClient(h, 'strict-headless')
    await rt.sandbox()!.context.clock.advance(2 * 60 * 60 * 1000)
    const flow = await startFlow(h, {
      kind: 'pis',
      environmentId,
      clientId,
      ...examplePayment(),
      capture: 'headless',
      authorisationUrlFrom: 'request-object',
    })
    const state = ok(await h['flows.runAll']({ flowId: flow.id, until: 'domestic-payment' }))
    for (const id of ['payment-consent', 'funds-confirmation', 'domestic-payment']) {
      const step = state.steps.find((s) => s.id === id)!
      expect(step.status, `${id}: ${JSON.stringify(step.error)}`).toBe('done')
      expect(
        step.checks.some((c) => c.name === 'response signature' && c.pass),
        id,
      ).toBe(true)
      expect(
        step.checks.filter((c) => !c.pass),
        id,
      ).toEqual([])
    }
  })
})
