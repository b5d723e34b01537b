import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AisConsentRecord, PisConsentRecord } from '../../../../src-main/local-sandbox/consents/consent-store.ts'
import { newPayment, type PaymentRecord } from '../../../../src-main/local-sandbox/pis/store/payment-store.ts'
import type { IdempotencyClaim, SandboxStore } from '../../../../src-main/local-sandbox/store/sandbox-store.ts'
import { DOMESTIC_INITIATION } from '../pis/support/domestic-initiation.ts'

/** How a backend is opened for the contract: a fresh store, and the same state opened again (a restart). */
export interface StoreUnderTest {
  store: SandboxStore
  /** Another store over the same state, as a restart (or, when `shared`, a second process) would open it. */
  reopen(): Promise<SandboxStore>
  /** Whether two stores open at once share their state live (a database), or only across a restart. */
  shared: boolean
}

const DAY = 24 * 60 * 60 * 1000
/** Now (whole seconds): the embedded backend drops from its snapshots what is older than a day of wall time. */
const T0 = Math.floor(Date.now() / 1000) * 1000
const S0 = T0 / 1000

const aisConsent = (over: Partial<AisConsentRecord> = {}): AisConsentRecord => ({
  kind: 'ais',
  consentId: `aac-${randomUUID()}`,
  clientId: 'c1',
  creationDateTime: new Date(T0).toISOString(),
  statusUpdateDateTime: new Date(T0).toISOString(),
  status: 'AWAU',
  permissions: ['ReadAccountsBasic'],
  accountIds: [],
  deleted: false,
  ...over,
})

const pisConsent = (over: Partial<PisConsentRecord> = {}): PisConsentRecord => ({
  kind: 'pis',
  consentId: `sdp-${randomUUID()}`,
  clientId: 'c1',
  creationDateTime: new Date(T0).toISOString(),
  statusUpdateDateTime: new Date(T0).toISOString(),
  status: 'AUTH',
  data: {
    Initiation: DOMESTIC_INITIATION,
  },
  risk: {},
  debtorAccountId: 'acc-amelia-current',
  ...over,
})

const paymentFor = (consentId: string, over: Partial<PaymentRecord> = {}): PaymentRecord => ({
  ...newPayment({
    consentId,
    clientId: 'c1',
    createdAtMs: T0,
    initiation: {
      InstructionIdentification: 'I',
      EndToEndIdentification: 'E',
      InstructedAmount: { Amount: '1.00', Currency: 'GBP' },
      CreditorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '08080021325698', Name: 'A' },
    },
    debtorAccountId: 'acc-amelia-current',
    readRefundAccount: false,
  }),
  ...over,
})

const claim = (over: Partial<IdempotencyClaim> = {}): IdempotencyClaim => ({
  clientId: 'c1',
  endpoint: 'domestic-payments',
  key: `k-${randomUUID()}`,
  bodySha256: 'a'.repeat(64),
  nowMs: T0,
  windowMs: DAY,
  ...over,
})

const consumed = {
  statusUpdateDateTime: new Date(T0 + 1000).toISOString(),
  statusReason: [{ StatusReasonCode: 'U038', StatusReasonDescription: 'Consumed.' }],
}

/**
 * The behaviour every SandboxStore backend owes the sandbox, run against each backend: the same
 * expectations, including the compound operations under concurrent calls (all started before any is
 * awaited, as concurrent requests are).
 */
export function sandboxStoreContract(backend: string, open: () => Promise<StoreUnderTest>): void {
  describe(`SandboxStore contract: ${backend}`, () => {
    let s: StoreUnderTest
    let store: SandboxStore
    beforeAll(async () => {
      s = await open()
      store = s.store
    })
    afterAll(async () => {
      await store?.close()
    })

    it('clock: starts at zero, advances by addition, raises only upwards, and a reopened store sees it', async () => {
      expect(await store.clockOffset()).toBe(0)
      const moves = await Promise.all(Array.from({ length: 10 }, () => store.advanceClock(1000)))
      expect(moves.sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => (i + 1) * 1000))
      expect(await store.raiseClockOffset(500)).toBe(10_000)
      expect(await store.raiseClockOffset(60_000)).toBe(60_000)
      const other = await s.reopen()
      expect(await other.clockOffset()).toBe(60_000)
      if (s.shared) {
        expect(await other.advanceClock(1)).toBe(60_001)
        expect(await store.clockOffset()).toBe(60_001)
      }
      await other.close()
    })

    it('consents: stored whole, read back, changed only from the expected statuses', async () => {
      const c = aisConsent({ expirationDateTime: '2027-01-01T00:00:00Z', statusReason: [{ StatusReasonCode: 'U036' }] })
      await store.insertConsent(c)
      expect(await store.consent(c.consentId)).toEqual(c)
      expect(await store.consent('aac-none')).toBeUndefined()
      const refused = await store.changeConsent(c.consentId, ['AUTH'], { status: 'EXPD' })
      expect(refused).toEqual({ changed: false, consent: c })
      const moved = await store.changeConsent(c.consentId, ['AWAU'], {
        status: 'AUTH',
        psuId: 'psu-amelia',
        accountIds: ['acc-1'],
        authorisedAtMs: T0,
        statusReason: null,
        debtorAccountId: 'ignored-for-ais',
      })
      expect(moved.changed).toBe(true)
      const stored = await store.consent(c.consentId)
      expect(stored).toEqual({
        ...c,
        status: 'AUTH',
        psuId: 'psu-amelia',
        accountIds: ['acc-1'],
        authorisedAtMs: T0,
        statusReason: undefined,
      })
      expect(stored && 'statusReason' in stored && stored.statusReason !== undefined).toBe(false)
      expect(await store.changeConsent('aac-none', ['AWAU'], { status: 'AUTH' })).toEqual({
        changed: false,
        consent: undefined,
      })
      const other = await s.reopen()
      expect(await other.consent(c.consentId)).toEqual(stored)
      await other.close()
    })

    it('consents: of an approval and a revocation racing, exactly one lands first and the other sees it', async () => {
      for (let i = 0; i < 5; i++) {
        const c = aisConsent()
        await store.insertConsent(c)
        const [approve, expire] = await Promise.all([
          store.changeConsent(c.consentId, ['AWAU'], { status: 'AUTH' }),
          store.changeConsent(c.consentId, ['AWAU'], { status: 'EXPD' }),
        ])
        expect([approve.changed, expire.changed].filter(Boolean)).toHaveLength(1)
        const final = (await store.consent(c.consentId))!.status
        expect(final).toBe(approve.changed ? 'AUTH' : 'EXPD')
      }
    })

    it('PIS consents with a key: created once; the same body replays, another body conflicts', async () => {
      const key = claim({ endpoint: 'domestic-payment-consents' })
      const outcomes = await Promise.all(
        Array.from({ length: 6 }, () => store.createConsentOnce(key, pisConsent({ status: 'AWAU' }))),
      )
      const created = outcomes.filter((o) => o.kind === 'created')
      expect(created).toHaveLength(1)
      const id = created[0]!.kind === 'created' ? created[0]!.value.consentId : ''
      expect(outcomes.filter((o) => o.kind === 'replay').map((o) => o.kind === 'replay' && o.resourceId)).toEqual(
        Array(5).fill(id),
      )
      expect(await store.createConsentOnce({ ...key, bodySha256: 'b'.repeat(64) }, pisConsent())).toEqual({
        kind: 'conflict',
        resourceId: id,
        firstUsedAtMs: T0,
      })
      expect(await store.idempotencyRecord(key)).toMatchObject({ resourceId: id, createdAtMs: T0 })
      // Keys are per client and per endpoint, and live for their window.
      expect(await store.idempotencyRecord({ ...key, clientId: 'c2' })).toBeUndefined()
      expect(await store.idempotencyRecord({ ...key, endpoint: 'domestic-payments' })).toBeUndefined()
      expect(await store.idempotencyRecord({ ...key, nowMs: T0 + DAY })).toBeUndefined()
      const late = await store.createConsentOnce({ ...key, nowMs: T0 + DAY }, pisConsent({ status: 'AWAU' }))
      expect(late.kind).toBe('created')
    })

    it('payments: 20 concurrent requests with one key make one payment and the others replay it', async () => {
      const consent = pisConsent()
      await store.insertConsent(consent)
      const key = claim()
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, () =>
          store.createPaymentForConsent({ claim: key, payment: paymentFor(consent.consentId), consumed }),
        ),
      )
      const created = outcomes.filter((o) => o.kind === 'created')
      expect(created).toHaveLength(1)
      const winner = created[0]!.kind === 'created' ? created[0]!.payment : undefined
      for (const o of outcomes.filter((x) => x.kind !== 'created'))
        expect(o).toEqual({ kind: 'replay', payment: winner, resourceId: winner!.domesticPaymentId })
      expect(await store.consent(consent.consentId)).toMatchObject({ status: 'COND', ...consumed })
      expect(await store.paymentByConsent(consent.consentId)).toEqual(winner)
      expect(await store.payment(winner!.domesticPaymentId)).toEqual(winner)
    })

    it('payments: one consent pays once whatever the keys; a consent not AUTH pays nothing', async () => {
      const consent = pisConsent()
      await store.insertConsent(consent)
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, () =>
          store.createPaymentForConsent({ claim: claim(), payment: paymentFor(consent.consentId), consumed }),
        ),
      )
      expect(outcomes.filter((o) => o.kind === 'created')).toHaveLength(1)
      const winner = outcomes.find((o) => o.kind === 'created')
      for (const o of outcomes.filter((x) => x.kind !== 'created'))
        expect(o).toEqual({ kind: 'consumed', payment: winner?.kind === 'created' ? winner.payment : undefined })

      const waiting = pisConsent({ status: 'AWAU' })
      await store.insertConsent(waiting)
      const refused = await store.createPaymentForConsent({
        claim: claim(),
        payment: paymentFor(waiting.consentId),
        consumed,
      })
      expect(refused).toEqual({ kind: 'not-authorised', consent: waiting })
      expect(await store.paymentByConsent(waiting.consentId)).toBeUndefined()
      expect(
        await store.createPaymentForConsent({ claim: claim(), payment: paymentFor('sdp-none'), consumed }),
      ).toEqual({ kind: 'not-authorised', consent: undefined })
    })

    it('payments: a key used with another body conflicts; payments list oldest first and by account', async () => {
      const consent = pisConsent()
      await store.insertConsent(consent)
      const key = claim()
      const first = paymentFor(consent.consentId, { createdAtMs: T0 - 5000, debtorAccountId: 'acc-contract' })
      await store.createPaymentForConsent({ claim: key, payment: first, consumed })
      expect(
        await store.createPaymentForConsent({
          claim: { ...key, bodySha256: 'c'.repeat(64) },
          payment: paymentFor(consent.consentId),
          consumed,
        }),
      ).toEqual({ kind: 'conflict', resourceId: first.domesticPaymentId, firstUsedAtMs: T0 })
      expect(await store.paymentsFromAccount('acc-contract')).toEqual([first])
      expect(await store.paymentCounts(['acc-contract', 'acc-none'])).toEqual(
        new Map([
          ['acc-contract', 1],
          ['acc-none', 0],
        ]),
      )
      const all = await store.payments()
      expect(all[0]).toEqual(first)
      expect(all.map((p) => p.createdAtMs)).toEqual([...all.map((p) => p.createdAtMs)].sort((a, b) => a - b))
      const other = await s.reopen()
      expect(await other.payment(first.domesticPaymentId)).toEqual(first)
      await other.close()
    })

    it('PSU-absent accesses: 8 concurrent with 3 left count exactly 3; the window slides; pages are free', async () => {
      const key = `consent-${randomUUID()}|accounts`
      const quota = { nowMs: T0, limit: 4, windowMs: DAY, continuation: false }
      expect(await store.countPsuAbsentAccess(key, { ...quota, nowMs: T0 - 1000 })).toEqual({ allowed: true })
      const outcomes = await Promise.all(Array.from({ length: 8 }, () => store.countPsuAbsentAccess(key, quota)))
      expect(outcomes.filter((o) => o.allowed)).toHaveLength(3)
      expect(outcomes.filter((o) => !o.allowed)).toEqual(Array(5).fill({ allowed: false, oldestMs: T0 - 1000 }))
      expect(await store.psuAbsentUsed(key, T0, DAY)).toBe(4)
      // A later page of an access in the window passes and is not counted.
      expect(await store.countPsuAbsentAccess(key, { ...quota, continuation: true })).toEqual({ allowed: true })
      expect(await store.psuAbsentUsed(key, T0, DAY)).toBe(4)
      // The oldest leaves the window: one more access.
      const later = { ...quota, nowMs: T0 - 1000 + DAY }
      expect(await store.countPsuAbsentAccess(key, later)).toEqual({ allowed: true })
      expect(await store.countPsuAbsentAccess(key, later)).toEqual({ allowed: false, oldestMs: T0 })
      const other = await s.reopen()
      expect(await other.psuAbsentUsed(key, later.nowMs, DAY)).toBe(4)
      await other.close()
    })

    it('registration jtis: one claim wins per software and jti until the JWT expires', async () => {
      const software = `soft-${randomUUID()}`
      const exp = S0 + 600
      const claims = await Promise.all(
        Array.from({ length: 5 }, () => store.claimRegistrationJti(software, 'j1', exp, S0)),
      )
      expect(claims.filter(Boolean)).toHaveLength(1)
      expect(await store.claimRegistrationJti(`${software}-other`, 'j1', exp, S0)).toBe(true)
      expect(await store.claimRegistrationJti(software, 'j2', exp, S0)).toBe(true)
      const other = await s.reopen()
      expect(await other.claimRegistrationJti(software, 'j1', exp, S0 + 300)).toBe(false)
      // Expired: the jti could not be replayed any more, and may be used again.
      expect(await other.claimRegistrationJti(software, 'j1', exp + 600, exp)).toBe(true)
      await other.close()
    })
  })
}
