import 'reflect-metadata'
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../support/sandbox-fixture.ts'
import type { RegisteredTestClient, TestTpp } from '../support/test-tpp.ts'
import { formAction, PsuBrowser, type Landing } from './support/psu-browser.ts'

let env: TestSandbox
let tpp: TestTpp
let client: RegisteredTestClient
let browser: PsuBrowser

beforeAll(async () => {
  env = await startTestSandbox()
  tpp = await env.onboard({ roles: ['AISP', 'PISP'] })
  client = await tpp.register() // strict, non-headless: the default for private_key_jwt + PS256
})
afterAll(async () => {
  await browser?.close()
  await env?.stop()
})
beforeEach(async () => {
  await browser?.close()
  browser = new PsuBrowser(env.sandbox.caBundlePem, [
    new URL(env.sandbox.authUrl).origin,
    new URL(env.sandbox.baseUrl).origin,
  ])
})

const consents = () => env.sandbox.context.consents

function page(l: Landing): Extract<Landing, { kind: 'page' }> {
  if (l.kind !== 'page') throw new Error(`expected a page, got a redirect to ${l.location}`)
  return l
}
function redirect(l: Landing): Extract<Landing, { kind: 'redirect' }> {
  if (l.kind !== 'redirect') throw new Error(`expected a redirect, got HTTP ${l.status}:\n${l.html}`)
  return l
}

async function startAuthorisation(consentId: string, scope: string, opts: { path?: string } = {}) {
  const state = randomUUID()
  const nonce = randomUUID()
  let url = await tpp.authorisationUrl(client, { consentId, scope, state, nonce })
  if (opts.path) {
    const u = new URL(url)
    u.pathname = opts.path
    url = u.href
  }
  return { state, nonce, landing: await browser.get(url) }
}

async function login(landing: Landing, username: string, password: string): Promise<Landing> {
  return browser.post(formAction(page(landing), '/login'), { username, password })
}

describe('non-headless AIS journey', () => {
  it('login (wrong password, then right), account selection with the savings account disabled, Approve', async () => {
    const consent = await consents().createAis({ clientId: client.clientId, permissions: ['ReadAccountsDetail'] })
    const { state, landing } = await startAuthorisation(consent.consentId, 'openid accounts')
    const loginPage = page(landing)
    expect(loginPage.status).toBe(200)
    expect(loginPage.html).toContain('<h1>Log in to your bank</h1>')
    expect(loginPage.html).toContain('<label for="username">Username</label>')
    expect(loginPage.html).not.toContain('<script')

    const wrong = page(await login(loginPage, 'amelia', 'not-her-password'))
    expect(wrong.status).toBe(401)
    expect(wrong.html).toContain('The username or password is wrong')
    expect((await consents().getAis(consent.consentId))!.status).toBe('AWAU')

    const selection = page(await login(wrong, 'amelia', 'amelia-sandbox'))
    expect(selection.status).toBe(200)
    expect(selection.html).toContain('Share account information with')
    expect(selection.html).toMatch(/name="accounts" value="acc-amelia-current" checked/)
    expect(selection.html).toMatch(/name="accounts" value="acc-amelia-card" checked/)
    expect(selection.html).toMatch(/name="accounts" value="acc-amelia-savings" disabled/)
    expect(selection.html).toContain('This account cannot be shared through account information services')

    const refused = page(
      await browser.post(formAction(selection, '/decision'), { decision: 'approve', accounts: ['acc-amelia-savings'] }),
    )
    expect(refused.status).toBe(400)
    expect(refused.html).toContain('cannot be shared through account information services')

    const done = redirect(
      await browser.post(formAction(refused, '/decision'), { decision: 'approve', accounts: ['acc-amelia-current'] }),
    )
    expect(done.location.startsWith(`${tpp.kit.redirectUris[0]}#`)).toBe(true)
    expect(done.params.get('state')).toBe(state)
    expect(done.params.get('code')).toBeTruthy()
    expect(done.params.get('id_token')).toBeTruthy()
    expect(await consents().getAis(consent.consentId)).toMatchObject({
      status: 'AUTH',
      psuId: 'psu-amelia',
      accountIds: ['acc-amelia-current'],
    })
    const tokens = await tpp.exchangeCode(client, done.params.get('code')!)
    expect(tokens.status).toBe(200)
  })

  it('Reject sends access_denied with the state, and the consent becomes RJCT', async () => {
    const consent = await consents().createAis({ clientId: client.clientId, permissions: ['ReadAccountsBasic'] })
    const { state, landing } = await startAuthorisation(consent.consentId, 'openid accounts')
    const selection = page(await login(landing, 'grace', 'grace-sandbox'))
    const done = redirect(await browser.post(formAction(selection, '/decision'), { decision: 'reject' }))
    expect(done.params.get('error')).toBe('access_denied')
    expect(done.params.get('state')).toBe(state)
    expect(done.params.get('code')).toBeNull()
    expect(await consents().getAis(consent.consentId)).toMatchObject({ status: 'RJCT', psuId: 'psu-grace' })
  })

  it('the app deeplink page runs the same journey (and the same checks)', async () => {
    const consent = await consents().createAis({ clientId: client.clientId, permissions: ['ReadAccountsBasic'] })
    const { landing } = await startAuthorisation(consent.consentId, 'openid accounts', {
      path: '/app/consent-access-request',
    })
    const loginPage = page(landing)
    expect(loginPage.html).toContain('<h1>Log in to your bank</h1>')
    const selection = page(await login(loginPage, 'rahul', 'rahul-sandbox'))
    expect(selection.html).toMatch(/value="acc-rahul-savings" disabled/)
    const done = redirect(
      await browser.post(formAction(selection, '/decision'), { decision: 'approve', accounts: ['acc-rahul-current'] }),
    )
    expect(done.params.get('code')).toBeTruthy()

    // Same checks: an already authorised consent is refused on the deeplink page too.
    const again = await startAuthorisation(consent.consentId, 'openid accounts', {
      path: '/app/consent-access-request',
    })
    const refused = redirect(again.landing)
    expect(refused.params.get('error')).toBe('invalid_request')
    expect(refused.params.get('error_description')).toContain('has status AUTH')
  })

  it('a PSU session is never reused: a second consent asks for a login again', async () => {
    const first = await consents().createAis({ clientId: client.clientId, permissions: ['ReadAccountsBasic'] })
    const a = await startAuthorisation(first.consentId, 'openid accounts')
    const selection = page(await login(a.landing, 'amelia', 'amelia-sandbox'))
    redirect(
      await browser.post(formAction(selection, '/decision'), { decision: 'approve', accounts: ['acc-amelia-card'] }),
    )
    const second = await consents().createAis({ clientId: client.clientId, permissions: ['ReadAccountsBasic'] })
    const b = await startAuthorisation(second.consentId, 'openid accounts')
    expect(page(b.landing).html).toContain('<h1>Log in to your bank</h1>')
    const sel2 = page(await login(b.landing, 'grace', 'grace-sandbox'))
    const done = redirect(
      await browser.post(formAction(sel2, '/decision'), { decision: 'approve', accounts: ['acc-grace-card'] }),
    )
    expect(done.params.get('code')).toBeTruthy()
    expect(await consents().getAis(second.consentId)).toMatchObject({ status: 'AUTH', psuId: 'psu-grace' })
  })
})

describe('non-headless PIS journey', () => {
  it('shows the payment summary and the account to pay from, then Approve', async () => {
    const consent = await consents().createPis({
      clientId: client.clientId,
      data: {
        Initiation: {
          InstructionIdentification: 'i-1',
          EndToEndIdentification: 'e-1',
          InstructedAmount: { Amount: '250.00', Currency: 'GBP' },
          CreditorAccount: {
            SchemeName: 'UK.OBIE.SortCodeAccountNumber',
            Identification: '20000012345678',
            Name: 'Landlord & Co',
          },
          RemittanceInformation: { Structured: [{ CreditorReferenceInformation: { Reference: 'RENT-MAY' } }] },
        },
      },
      risk: {},
    })
    const { landing } = await startAuthorisation(consent.consentId, 'openid payments')
    const summary = page(await login(landing, 'rahul', 'rahul-sandbox'))
    expect(summary.html).toContain('250.00 GBP')
    expect(summary.html).toContain('Landlord &amp; Co')
    expect(summary.html).toContain('RENT-MAY')
    expect(summary.html).toMatch(/type="radio" name="debtor" value="acc-rahul-current" checked/)
    const done = redirect(
      await browser.post(formAction(summary, '/decision'), { decision: 'approve', debtor: 'acc-rahul-current' }),
    )
    expect(done.params.get('code')).toBeTruthy()
    expect(await consents().getPis(consent.consentId)).toMatchObject({
      status: 'AUTH',
      psuId: 'psu-rahul',
      debtorAccountId: 'acc-rahul-current',
    })
  })

  it('an interaction page without its cookie, or an unknown one, is an error page', async () => {
    const res = await tpp.call('GET', `${env.sandbox.authUrl}/interaction/abcdef123`, { mtls: false })
    expect(res.status).toBe(400)
    expect(res.text).toContain('this login page has expired or was opened without its cookie')
    expect((await tpp.discovery()).issuer).toBe(env.sandbox.authUrl)
  })
})
