import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConsoleRuntime } from '../../../src-main/cli/console-runtime.ts'
import { formAction, PsuBrowser, type Landing } from '../local-sandbox/auth/support/psu-browser.ts'
import {
  freshRuntime,
  headlessAis,
  ok,
  registeredClient,
  startFlow,
  stepStatuses,
  untilAwaiting,
} from './journey-support.ts'

function page(l: Landing): Extract<Landing, { kind: 'page' }> {
  if (l.kind !== 'page') throw new Error(`expected a page, got a redirect to ${l.location}`)
  return l
}

describe('AIS journeys through the console engine, against the local sandbox over mutual TLS', () => {
  let rt: ConsoleRuntime
  let browser: PsuBrowser

  beforeAll(async () => {
    rt = await freshRuntime()
    ok(await rt.handlers['environments.startLocalSandbox']())
    const sb = rt.sandbox()!
    browser = new PsuBrowser(
      sb.caBundlePem,
      [sb.authUrl, sb.baseUrl].map((u) => new URL(u).origin),
    )
  })
  afterAll(async () => {
    await browser?.close()
    await rt?.stop()
  })

  it('headless: every step passes, both shareable accounts, every page of 1,000+ transactions, product rules explained', async () => {
    const h = rt.handlers
    const { environmentId, clientId } = await registeredClient(h, 'strict-headless')
    const flow = await startFlow(h, headlessAis(environmentId, clientId))
    const state = ok(await h['flows.runAll']({ flowId: flow.id }))
    expect(Object.values(stepStatuses(state))).toEqual(Array(state.steps.length).fill('done'))
    const idToken = state.steps.find((s) => s.id === 'id-token')!
    expect(idToken.checks.map((c) => c.name)).toEqual(
      expect.arrayContaining(['nonce', 'c_hash', 's_hash', 'openbanking_intent_id']),
    )
    // The step reports what it read, per account; the rows are not in its output (every progress event and
    // state read carries it) but built when the data view is opened.
    const read = state.steps.find((s) => s.id === 'transactions')!.output as Record<
      string,
      { total: number; pages: number; pending: number; stoppedBecause: string; matches: unknown[] }
    >
    expect(Object.keys(read).sort()).toEqual(['acc-amelia-card', 'acc-amelia-current'])
    for (const x of Object.values(read))
      expect(Object.keys(x).sort()).toEqual(['matches', 'pages', 'pending', 'stoppedBecause', 'total'])
    expect(JSON.stringify(read).length).toBeLessThan(1000)
    const data = ok(await h['ais.accountData']({ flowId: flow.id }))
    expect(data.map((a) => a.accountTypeCode).sort()).toEqual(['CACC', 'CARD'])
    const current = data.find((a) => a.accountTypeCode === 'CACC')!
    expect(current.transactions.total).toBeGreaterThan(1000)
    expect(current.transactions.pages).toBe(Math.ceil(current.transactions.total / 100))
    // Every row of every page, as the bank sent them, in order; pending ones as many as the step counted.
    for (const a of data) {
      expect(a.transactions.items).toHaveLength(read[a.accountId]!.total)
      expect(a.transactions.items.filter((t) => t.status === 'PDNG')).toHaveLength(read[a.accountId]!.pending)
      expect(new Set(a.transactions.items.map((t) => t.transactionId)).size).toBe(a.transactions.total)
    }
    expect(current.transactions.items[0]).toMatchObject({
      transactionId: expect.any(String),
      bookingDateTime: expect.any(String),
      amount: expect.stringMatching(/^\d+\.\d{2}$/),
      currency: 'GBP',
    })
    // Built once: the data view opened again shows the same rows.
    expect(
      ok(await h['ais.accountData']({ flowId: flow.id })).find((a) => a.accountTypeCode === 'CACC')!.transactions.items,
    ).toBe(current.transactions.items)
    expect(current.balances[0]).toMatchObject({ Type: 'ITAV' })
    const card = data.find((a) => a.accountTypeCode === 'CARD')!
    expect(card.resources.find((r) => r.resource === 'standing-orders')).toMatchObject({
      status: 200,
      count: 0,
      emptyByProductRule: expect.stringContaining('credit card'),
    })
    expect(current.resources.find((r) => r.resource === 'offers')?.emptyByProductRule).toContain('current account')
    expect(current.resources.find((r) => r.resource === 'standing-orders')?.count).toBeGreaterThan(0)
    // Every exchange of the flow is in the inspector, filterable by flow and path.
    const pages = ok(await h['exchanges.list']({ flowId: flow.id, pathContains: '/transactions' }))
    expect(pages.total).toBe(current.transactions.pages + card.transactions.pages)
    const one = ok(await h['exchanges.get']({ id: pages.items[0]!.id }))
    expect(one.presentedCertificate).not.toBeNull()
    expect(one.response?.status).toBe(200)
    expect(JSON.stringify(one.request.headers)).not.toMatch(/Bearer [A-Za-z0-9_-]{20,}/)
  })

  it("a run opens {base_url}'s connection while its first steps work on {auth_url}: the consent takes it", async () => {
    const h = rt.handlers
    const { environmentId, clientId } = await registeredClient(h, 'strict-headless')
    // As a console whose connections closed since the registration.
    await rt.services.http.dropConnections()
    const flow = await startFlow(h, headlessAis(environmentId, clientId))
    const state = ok(await h['flows.runAll']({ flowId: flow.id }))
    const [consentExchange] = state.steps.find((s) => s.id === 'consent')!.exchangeIds
    const x = ok(await h['exchanges.get']({ id: consentExchange! }))
    expect(x.request.method).toBe('POST')
    expect(x.reusedConnection).toBe(false)
    expect(x.presentedCertificate?.sent).toBe(true)
    expect(x.timings.preconnected).toBeGreaterThan(0)
    // The steps before it went to {auth_url} only.
    const sb = rt.sandbox()!
    const before = state.steps
      .slice(
        0,
        state.steps.findIndex((s) => s.id === 'consent'),
      )
      .flatMap((s) => s.exchangeIds)
    for (const id of before) expect(ok(await h['exchanges.get']({ id })).request.url.startsWith(sb.authUrl)).toBe(true)
  })

  it('the data view is built from the exchange log: once built it stays; a flow never viewed before the log is cleared says to re-run its step', async () => {
    const h = rt.handlers
    const { environmentId, clientId } = await registeredClient(h, 'strict-headless')
    const start = () =>
      startFlow(h, {
        kind: 'ais',
        environmentId,
        clientId,
        permissions: [
          'ReadAccountsDetail',
          'ReadTransactionsDetail',
          'ReadTransactionsCredits',
          'ReadTransactionsDebits',
        ],
        psuPresent: true,
        capture: 'headless',
        authorisationUrlFrom: 'request-object',
      })
    const viewed = await start()
    const unviewed = await start()
    for (const f of [viewed, unviewed]) ok(await h['flows.runAll']({ flowId: f.id }))
    const rows = ok(await h['ais.accountData']({ flowId: viewed.id })).flatMap((a) => a.transactions.items)
    expect(rows.length).toBeGreaterThan(1000)
    ok(await h['exchanges.clear']())
    expect(ok(await h['ais.accountData']({ flowId: viewed.id })).flatMap((a) => a.transactions.items)).toEqual(rows)
    const gone = await h['ais.accountData']({ flowId: unviewed.id })
    expect(gone.ok).toBe(false)
    if (!gone.ok) {
      expect(gone.error.code).toBe('NOT_FOUND')
      expect(gone.error.what).toContain('no longer in the exchange log')
      expect(gone.error.fix).toContain('Transactions step again')
    }
    // Re-running the step reads the pages afresh, and the view is back.
    ok(await h['flows.runStep']({ flowId: unviewed.id, stepId: 'transactions' }))
    expect(ok(await h['ais.accountData']({ flowId: unviewed.id })).flatMap((a) => a.transactions.items)).toHaveLength(
      rows.length,
    )
  })

  it('non-headless: the PSU logs in on the sandbox page, picks one account, and the loopback listener catches the fragment', async () => {
    const h = rt.handlers
    const { environmentId, clientId } = await registeredClient(h, 'strict')
    const flow = await startFlow(h, {
      kind: 'ais',
      environmentId,
      clientId,
      permissions: ['ReadAccountsDetail', 'ReadBalances'],
      psuPresent: true,
      capture: 'loopback',
      authorisationUrlFrom: 'request-object',
    })
    const running = h['flows.runAll']({ flowId: flow.id })
    const awaiting = await untilAwaiting(h, flow.id)
    expect(awaiting.redirectUri).toBe(rt.services.info.loopbackRedirectUri)
    const loginPage = page(await browser.get(awaiting.authorisationUrl!))
    const selection = page(
      await browser.post(formAction(loginPage, '/login'), { username: 'rahul', password: 'rahul-sandbox' }),
    )
    const done = await browser.post(formAction(selection, '/decision'), {
      decision: 'approve',
      accounts: ['acc-rahul-current'],
    })
    if (done.kind !== 'redirect') throw new Error('expected the redirect back to the TPP')
    expect(done.location.startsWith(awaiting.redirectUri)).toBe(true)
    // The browser lands on the listener's page, whose script posts the address (fragment included) back.
    const posted = await request(new URL('/callback/capture', awaiting.redirectUri), {
      method: 'POST',
      body: done.location,
      headers: { 'content-type': 'text/plain' },
    })
    expect(((await posted.body.json()) as { message: string }).message).toMatch(/authorisation code/)
    const state = ok(await running)
    expect(stepStatuses(state)).toMatchObject({
      capture: 'done',
      'id-token': 'done',
      accounts: 'done',
      balances: 'done',
      transactions: 'skipped',
    })
    const data = ok(await h['ais.accountData']({ flowId: flow.id }))
    expect(data.map((a) => a.accountId)).toEqual(['acc-rahul-current'])
  })

  it('pasted URL: the return is pasted into the flow; a return of another request is refused by state', async () => {
    const h = rt.handlers
    const { environmentId, clientId } = await registeredClient(h, 'strict-headless')
    const flow = await startFlow(h, {
      kind: 'ais',
      environmentId,
      clientId,
      permissions: ['ReadAccountsBasic', 'ReadBalances'],
      psuPresent: true,
      capture: 'pasted',
      authorisationUrlFrom: 'request-object',
    })
    const running = h['flows.runAll']({ flowId: flow.id })
    const awaiting = await untilAwaiting(h, flow.id)
    const refused = async (url: string) => {
      const r = await h['flows.capture']({ flowId: flow.id, url })
      if (r.ok) throw new Error(`expected ${url} to be refused`)
      return r.error
    }
    const wrong = await refused(`${awaiting.redirectUri}#code=x&id_token=a.b.c&state=someone-else`)
    expect(wrong).toMatchObject({ code: 'AUTH_RETURN_STATE_MISMATCH', details: { wayOn: 'paste-again' } })
    expect(wrong.cause).toContain('someone-else')
    expect(await refused('code=abc')).toMatchObject({
      code: 'AUTH_RETURN_NOT_A_URL',
      details: { wayOn: 'paste-again' },
    })
    expect(await refused(awaiting.redirectUri)).toMatchObject({
      code: 'AUTH_RETURN_NO_CODE',
      details: { wayOn: 'paste-again' },
    })
    expect(await refused(`${awaiting.redirectUri}#id_token=a.b.c&state=${awaiting.state}`)).toMatchObject({
      code: 'AUTH_RETURN_NO_CODE',
    })
    expect(await refused(`${awaiting.redirectUri}?code=x&state=${awaiting.state}#id_token=a.b.c`)).toMatchObject({
      code: 'AUTH_RETURN_CODE_IN_QUERY',
    })
    // A second flow waits too: its return pasted here is named as its.
    const other = await startFlow(h, {
      kind: 'ais',
      environmentId,
      clientId,
      permissions: ['ReadAccountsBasic'],
      psuPresent: true,
      capture: 'pasted',
      authorisationUrlFrom: 'request-object',
    })
    const otherRunning = h['flows.runAll']({ flowId: other.id })
    const otherAwaiting = await untilAwaiting(h, other.id)
    expect(await refused(`${awaiting.redirectUri}#code=x&id_token=a.b.c&state=${otherAwaiting.state}`)).toMatchObject({
      code: 'AUTH_RETURN_OTHER_FLOW',
      details: { wayOn: 'other-flow', otherFlowId: other.id },
    })
    // Still waiting after every refusal; the other flow ends with the PSU's refusal, pasted: a new consent is the way on.
    ok(
      await h['flows.capture']({
        flowId: other.id,
        url: `${otherAwaiting.redirectUri}#error=access_denied&error_description=PSU%20cancelled&state=${otherAwaiting.state}`,
      }),
    )
    const otherState = ok(await otherRunning)
    expect(otherState.steps.find((s) => s.id === 'capture')?.error).toMatchObject({
      code: 'AUTH_RETURN_ERROR',
      details: { wayOn: 'new-consent' },
    })
    const redirect = await browser.get(awaiting.authorisationUrl!)
    if (redirect.kind !== 'redirect') throw new Error('a headless client should be redirected at once')
    ok(await h['flows.capture']({ flowId: flow.id, url: redirect.location }))
    const state = ok(await running)
    expect(state.steps.find((s) => s.id === 'capture')?.summary).toContain('pasted')
    expect(state.steps.every((s) => s.status === 'done' || s.status === 'skipped')).toBe(true)
  })

  it("the bank app deeplink: consent-access-request run on the sandbox's app page, returned through the console scheme", async () => {
    const h = rt.handlers
    const { environmentId, clientId } = await registeredClient(h, 'strict')
    const flow = await startFlow(h, {
      kind: 'ais',
      environmentId,
      clientId,
      permissions: ['ReadAccountsDetail'],
      psuPresent: true,
      capture: 'deeplink',
      authorisationUrlFrom: 'app-deeplink',
    })
    const running = h['flows.runAll']({ flowId: flow.id })
    const awaiting = await untilAwaiting(h, flow.id)
    expect(awaiting.deeplink).toMatch(/^bankapp:\/\/consent-access-request\?/)
    const q = new URL(awaiting.deeplink!).searchParams
    expect(q.get('response_type')).toBe('code id_token')
    expect(q.get('scope')).toBe('openid accounts')
    expect(q.get('request')!.split('.')).toHaveLength(3)
    const appPage = `${rt.sandbox()!.authUrl}/app/consent-access-request?${q}`
    const loginPage = page(await browser.get(appPage))
    const selection = page(
      await browser.post(formAction(loginPage, '/login'), { username: 'amelia', password: 'amelia-sandbox' }),
    )
    const done = await browser.post(formAction(selection, '/decision'), {
      decision: 'approve',
      accounts: ['acc-amelia-card'],
    })
    if (done.kind !== 'redirect') throw new Error('expected the redirect back to the console scheme')
    expect(done.location).toMatch(/^ob-console:\/\/oauth\/callback#/)
    expect(rt.services.flows.deliverDeeplink(done.location)).toBe(true)
    const state = ok(await running)
    expect(state.steps.every((s) => s.status === 'done' || s.status === 'skipped')).toBe(true)
    expect(ok(await h['ais.accountData']({ flowId: flow.id })).map((a) => a.accountTypeCode)).toEqual(['CARD'])
  })

  it('a PSU who refuses: the capture step fails with access_denied explained, the consent is RJCT', async () => {
    const h = rt.handlers
    const { environmentId, clientId } = await registeredClient(h, 'strict')
    const flow = await startFlow(h, {
      kind: 'ais',
      environmentId,
      clientId,
      permissions: ['ReadAccountsDetail'],
      psuPresent: true,
      capture: 'loopback',
      authorisationUrlFrom: 'request-object',
    })
    const running = h['flows.runAll']({ flowId: flow.id })
    const awaiting = await untilAwaiting(h, flow.id)
    const loginPage = page(await browser.get(awaiting.authorisationUrl!))
    const selection = page(
      await browser.post(formAction(loginPage, '/login'), { username: 'grace', password: 'grace-sandbox' }),
    )
    const done = await browser.post(formAction(selection, '/decision'), { decision: 'reject' })
    if (done.kind !== 'redirect') throw new Error('expected a redirect')
    await request(new URL('/callback/capture', awaiting.redirectUri), { method: 'POST', body: done.location })
    const state = ok(await running)
    const capture = state.steps.find((s) => s.id === 'capture')!
    expect(capture.status).toBe('failed')
    expect(capture.error).toMatchObject({
      code: 'AUTH_RETURN_ERROR',
      what: expect.stringContaining('access_denied'),
      details: { wayOn: 'new-consent' },
    })
    expect(capture.error?.fix).toMatch(/new consent/)
  })

  it('client_secret_basic with the /o3 auth-code-url helper (permissive, headless), and the PSU-absent budget', async () => {
    const h = rt.handlers
    const { environmentId, clientId } = await registeredClient(h, 'permissive-headless')
    const flow = await startFlow(h, {
      kind: 'ais',
      environmentId,
      clientId,
      permissions: ['ReadAccountsBasic', 'ReadBalances', 'ReadTransactionsBasic', 'ReadTransactionsDebits'],
      psuPresent: false,
      capture: 'headless',
      authorisationUrlFrom: 'o3-helper',
    })
    const state = ok(await h['flows.runAll']({ flowId: flow.id }))
    expect(stepStatuses(state)).toMatchObject({
      'authorisation-url': 'done',
      capture: 'done',
      transactions: 'done',
      'other-resources': 'skipped',
    })
    expect(state.steps.find((s) => s.id === 'other-resources')?.summary).toContain('skipped')
    const budget = ok(await h['ais.budget']({ flowId: flow.id }))
    expect(budget.find((b) => b.accountId === 'acc-amelia-current' && b.endpoint === 'balances')).toMatchObject({
      used: 1,
      remaining: 3,
    })
    expect(budget.find((b) => b.accountId === 'acc-amelia-current' && b.endpoint === 'transactions')).toMatchObject({
      used: 1,
      remaining: 3,
    })
    // Three more runs use up the allowance; the console refuses the fifth call before sending it.
    for (let i = 0; i < 3; i++)
      expect(
        ok(await h['flows.runStep']({ flowId: flow.id, stepId: 'balances' })).steps.find((s) => s.id === 'balances')
          ?.status,
      ).toBe('done')
    const fifth = ok(await h['flows.runStep']({ flowId: flow.id, stepId: 'balances' }))
    const balances = fifth.steps.find((s) => s.id === 'balances')!
    expect(balances.status).toBe('failed')
    expect(balances.error?.cause).toMatch(/4 calls in 24 hours/)
  })

  it("a pending transaction booked under a new id is matched by the client's next flow, and by every flow after, without piling up", async () => {
    const h = rt.handlers
    const { environmentId, clientId } = await registeredClient(h, 'strict-headless')
    const permissions = [
      'ReadAccountsDetail',
      'ReadTransactionsDetail',
      'ReadTransactionsCredits',
      'ReadTransactionsDebits',
    ]
    const run = async () => {
      const flow = await startFlow(h, {
        kind: 'ais',
        environmentId,
        clientId,
        permissions,
        psuPresent: true,
        capture: 'headless',
        authorisationUrlFrom: 'request-object',
      })
      const state = ok(await h['flows.runAll']({ flowId: flow.id }))
      expect(Object.values(stepStatuses(state)).every((s) => s === 'done' || s === 'skipped')).toBe(true)
      return ok(await h['ais.accountData']({ flowId: flow.id }))
    }
    const pending = (await run()).flatMap((a) => a.transactions.items).filter((t) => t.status === 'PDNG')
    expect(pending.length, "the seed has pending transactions on Amelia's accounts").toBeGreaterThan(0)
    expect(pending.every((t) => t.transactionId.startsWith('ptx-'))).toBe(true)
    // The sandbox books each pending transaction at its expected booking time, under a new id.
    const clock = rt.sandbox()!.context.clock
    await clock.advance(Math.max(...pending.map((t) => Date.parse(t.bookingDateTime))) - clock.nowMs() + 1000)
    for (let again = 0; again < 2; again++) {
      const data = await run()
      const matched = data.flatMap((a) => a.transactions.items).filter((t) => t.matchedPendingId)
      // Each pending transaction matched once, to a booked one with a new id and the same amount and reference.
      expect(matched.map((t) => t.matchedPendingId).sort()).toEqual(pending.map((t) => t.transactionId).sort())
      for (const b of matched) {
        const p = pending.find((x) => x.transactionId === b.matchedPendingId)!
        expect(b).toMatchObject({
          status: 'BOOK',
          amount: p.amount,
          currency: p.currency,
          reference: p.reference,
          bookingDateTime: p.bookingDateTime,
        })
        expect(b.transactionId).toMatch(/^tx-/)
      }
      expect(data.reduce((n, a) => n + a.transactions.pendingMatched, 0)).toBe(pending.length)
    }
  })
})
