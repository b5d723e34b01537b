import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAisHarness, type AisHarness } from './support/ais-harness.ts'

const DATE_TIME_TZ = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

describe('AIS account-access-consents over mTLS', () => {
  let h: AisHarness
  beforeAll(async () => {
    h = await startAisHarness()
  })
  afterAll(async () => {
    await h?.stop()
  })

  it('creates a consent: 201 OBReadConsentResponse1 with AWAU, echoed fields, Risk, Links and Meta', async () => {
    const expiry = new Date(h.clock.nowMs() + 90 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, '+00:00')
    const interactionId = '93bac548-d2de-4546-b106-880a5018460d'
    const res = await h.tppA.call('POST', '/account-access-consents', {
      token: h.tppA.ccToken(),
      headers: { 'x-fapi-interaction-id': interactionId },
      body: {
        Data: {
          Permissions: ['ReadAccountsBasic', 'ReadAccountsDetail', 'ReadBalances'],
          ExpirationDateTime: expiry,
          TransactionFromDateTime: '2025-01-01T00:00:00+00:00',
        },
        Risk: {},
      },
    })
    expect(res.status).toBe(201)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.headers['x-fapi-interaction-id']).toBe(interactionId)
    const d = res.body.Data
    expect(d.ConsentId).toMatch(/^aac-/)
    expect(d.Status).toBe('AWAU')
    expect(d.CreationDateTime).toMatch(DATE_TIME_TZ)
    expect(d.StatusUpdateDateTime).toMatch(DATE_TIME_TZ)
    expect(d.StatusReason).toEqual([{ StatusReasonCode: 'U036', StatusReasonDescription: expect.any(String) }])
    expect(d.Permissions).toEqual(['ReadAccountsBasic', 'ReadAccountsDetail', 'ReadBalances'])
    expect(d.ExpirationDateTime).toBe(expiry)
    expect(d.TransactionFromDateTime).toBe('2025-01-01T00:00:00+00:00')
    expect(d.TransactionToDateTime).toBeUndefined()
    expect(res.body.Risk).toEqual({})
    expect(res.body.Links.Self).toBe(`${h.baseUrl}/open-banking/v4.0/aisp/account-access-consents/${d.ConsentId}`)
    expect(res.body.Meta).toEqual({ TotalPages: 1 })
  })

  it('reads its own consent, refuses another client (403) and an unknown id (400 U011)', async () => {
    const id = await h.tppA.createConsent(['ReadAccountsBasic'])
    const own = await h.tppA.call('GET', `/account-access-consents/${id}`, { token: h.tppA.ccToken() })
    expect(own.status).toBe(200)
    expect(own.body.Data).toMatchObject({ ConsentId: id, Status: 'AWAU', Permissions: ['ReadAccountsBasic'] })

    const other = await h.tppB.call('GET', `/account-access-consents/${id}`, { token: h.tppB.ccToken() })
    expect(other.status).toBe(403)
    expect(other.body.Errors[0].ErrorCode).toBe('U008')

    const unknown = await h.tppA.call('GET', '/account-access-consents/aac-does-not-exist', { token: h.tppA.ccToken() })
    expect(unknown.status).toBe(400)
    expect(unknown.body.Errors[0]).toMatchObject({ ErrorCode: 'U011', Path: 'ConsentId' })
    expect(unknown.body.Errors[0].Message).toMatch(/^UK\.OBIE\.Resource\.NotFound - /)
  })

  it('shows AUTH after the PSU authorises, then DELETE gives 204, CANC, and a GET after it 400', async () => {
    const { consentId, token } = await h.tppA.authorised(['ReadAccountsBasic'], 'psu-amelia', ['acc-amelia-current'])
    const got = await h.tppA.call('GET', `/account-access-consents/${consentId}`, { token: h.tppA.ccToken() })
    expect(got.body.Data.Status).toBe('AUTH')
    expect(got.body.Data.StatusReason).toBeUndefined()
    expect((await h.tppA.call('GET', '/accounts', { token })).status).toBe(200)

    const otherDelete = await h.tppB.call('DELETE', `/account-access-consents/${consentId}`, {
      token: h.tppB.ccToken(),
    })
    expect(otherDelete.status).toBe(403)

    const del = await h.tppA.call('DELETE', `/account-access-consents/${consentId}`, { token: h.tppA.ccToken() })
    expect(del.status).toBe(204)
    expect(del.text).toBe('')
    expect((await h.consents.getAis(consentId))?.status).toBe('CANC')

    const after = await h.tppA.call('GET', `/account-access-consents/${consentId}`, { token: h.tppA.ccToken() })
    expect(after.status).toBe(400)
    expect(after.body.Errors[0].ErrorCode).toBe('U011')
    expect(after.body.Errors[0].Message).toContain('deleted')
    expect(
      (await h.tppA.call('DELETE', `/account-access-consents/${consentId}`, { token: h.tppA.ccToken() })).status,
    ).toBe(400)

    const data = await h.tppA.call('GET', '/accounts', { token })
    expect(data.status).toBe(403)
    expect(data.body.Errors[0].ErrorCode).toBe('U009')
    expect(data.body.Errors[0].Message).toContain('CANC')
  })

  it('expires a consent at its ExpirationDateTime on the sandbox clock (EXPD), and data access stops', async () => {
    const expiry = new Date(h.clock.nowMs() + 3_600_000).toISOString()
    const { consentId, token } = await h.tppA.authorised(['ReadAccountsBasic'], 'psu-rahul', ['acc-rahul-current'], {
      ExpirationDateTime: expiry,
    })
    expect((await h.tppA.call('GET', '/accounts', { token })).status).toBe(200)
    await h.clock.advance(3_600_001)
    const got = await h.tppA.call('GET', `/account-access-consents/${consentId}`, { token: h.tppA.ccToken() })
    expect(got.body.Data.Status).toBe('EXPD')
    expect(got.body.Data.StatusReason[0].StatusReasonCode).toBe('TKXP')
    expect(got.body.Data.ExpirationDateTime).toBe(expiry)
    const data = await h.tppA.call('GET', '/accounts', { token })
    expect(data.status).toBe(403)
    expect(data.body.Errors[0].Message).toContain('EXPD')
  })

  it('refuses data access with a rejected consent and with an AWAU consent', async () => {
    const rejected = await h.tppA.createConsent(['ReadAccountsBasic'])
    await h.consents.reject(rejected, 'psu-amelia')
    const r = await h.tppA.call('GET', '/accounts', { token: h.tppA.codeToken(rejected) })
    expect(r.status).toBe(403)
    expect(r.body.Errors[0].Message).toContain('RJCT')
    const waiting = await h.tppA.createConsent(['ReadAccountsBasic'])
    const w = await h.tppA.call('GET', '/accounts', { token: h.tppA.codeToken(waiting) })
    expect(w.status).toBe(403)
    expect(w.body.Errors[0].Message).toContain('AWAU')
  })

  it('refuses a token of the wrong kind: 401 with no body without one, 403 for the wrong grant or scope', async () => {
    const none = await h.tppA.call('POST', '/account-access-consents', {
      body: { Data: { Permissions: ['ReadAccountsBasic'] }, Risk: {} },
    })
    expect(none.status).toBe(401)
    expect(none.text).toBe('')
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/)
    expect(none.headers['x-fapi-interaction-id']).toBeTruthy()

    const unknownToken = await h.tppA.call('GET', '/accounts', { token: 'not-a-token' })
    expect(unknownToken.status).toBe(401)

    const stolen = await h.tppB.call('GET', '/account-access-consents/x', { token: h.tppA.ccToken() })
    expect(stolen.status).toBe(401)

    const consentId = await h.tppA.createConsent(['ReadAccountsBasic'])
    const codeOnConsent = await h.tppA.call('GET', `/account-access-consents/${consentId}`, {
      token: h.tppA.codeToken(consentId),
    })
    expect(codeOnConsent.status).toBe(403)

    const ccOnData = await h.tppA.call('GET', '/accounts', { token: h.tppA.ccToken() })
    expect(ccOnData.status).toBe(403)

    const payments = await h.tppA.call('POST', '/account-access-consents', {
      token: h.tppA.ccToken('payments'),
      body: { Data: { Permissions: ['ReadAccountsBasic'] }, Risk: {} },
    })
    expect(payments.status).toBe(403)
    expect(payments.body.Errors[0].Message).toContain('accounts')
  })

  it("refuses another TPP's consent behind a token the other TPP holds", async () => {
    const { consentId } = await h.tppA.authorised(['ReadAccountsBasic'], 'psu-amelia', ['acc-amelia-current'])
    const forged = h.tokens.issue({
      clientId: h.tppB.clientId,
      grant: 'authorization_code',
      scopes: ['accounts'],
      consentId,
      certificateThumbprint: h.tppB.thumbprint,
    })
    const res = await h.tppB.call('GET', '/accounts', { token: forged })
    expect(res.status).toBe(403)
    expect(res.body.Errors[0]).toMatchObject({ ErrorCode: 'U008' })
    expect(res.body.Errors[0].Message).toContain('another client')
  })
})
