import { PDFDocument } from 'pdf-lib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ALL_PERMISSIONS, startAisHarness, type AisHarness } from './support/ais-harness.ts'

const AMOUNT = /^\d{1,13}\.\d{1,5}$/
const DATE_TIME_TZ = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\+00:00|Z)$/
const AMELIA = ['acc-amelia-current', 'acc-amelia-card', 'acc-amelia-savings']

describe('AIS accounts, balances and the other resources over mTLS', () => {
  let h: AisHarness
  let full: string
  beforeAll(async () => {
    h = await startAisHarness()
    full = (await h.tppA.authorised(ALL_PERMISSIONS, 'psu-amelia', AMELIA)).token
  })
  afterAll(async () => {
    await h?.stop()
  })

  it("lists the consent's accounts with Detail and ReadPAN; a savings account bound to the consent never appears", async () => {
    const res = await h.tppA.call('GET', '/accounts', { token: full })
    expect(res.status).toBe(200)
    expect(res.body.Links.Self).toBe(`${h.baseUrl}/open-banking/v4.0/aisp/accounts`)
    expect(res.body.Meta.TotalPages).toBe(1)
    const accounts = res.body.Data.Account
    expect(accounts.map((a: { AccountId: string }) => a.AccountId).sort()).toEqual([
      'acc-amelia-card',
      'acc-amelia-current',
    ])
    const current = accounts.find((a: { AccountId: string }) => a.AccountId === 'acc-amelia-current')
    expect(current).toMatchObject({
      Status: 'Enabled',
      Currency: 'GBP',
      AccountCategory: 'Personal',
      AccountTypeCode: 'CACC',
      Nickname: 'Everyday current',
      OpeningDate: '2019-03-14T00:00:00+00:00',
      SwitchStatus: 'UK.CASS.NotSwitched',
      Account: [
        { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '40051277001122', Name: 'Miss Amelia R Hughes' },
      ],
      Servicer: { SchemeName: 'UK.OBIE.BICFI', Identification: 'OBCSGB2L' },
    })
    const card = accounts.find((a: { AccountId: string }) => a.AccountId === 'acc-amelia-card')
    expect(card.Account[0]).toEqual({
      SchemeName: 'UK.OBIE.PAN',
      Identification: '5412750012345678',
      Name: 'Miss Amelia R Hughes',
    })

    const savings = await h.tppA.call('GET', '/accounts/acc-amelia-savings', { token: full })
    expect(savings.status).toBe(403)
    expect(savings.body.Errors[0].Message).toContain('savings')
    for (const path of ['/accounts/acc-amelia-savings/balances', '/accounts/acc-amelia-savings/transactions']) {
      expect((await h.tppA.call('GET', path, { token: full })).status).toBe(403)
    }
    const balances = await h.tppA.call('GET', '/balances', { token: full })
    expect(balances.body.Data.Balance.map((b: { AccountId: string }) => b.AccountId)).not.toContain(
      'acc-amelia-savings',
    )
    const tx = await h.tppA.call('GET', '/transactions', { token: full })
    expect(tx.body.Data.Transaction.every((t: { AccountId: string }) => t.AccountId !== 'acc-amelia-savings')).toBe(
      true,
    )
  })

  it('masks the PAN without ReadPAN and leaves out Account and Servicer with Basic only', async () => {
    const detail = (
      await h.tppA.authorised(
        ['ReadAccountsDetail', 'ReadTransactionsDetail', 'ReadTransactionsDebits'],
        'psu-amelia',
        AMELIA,
      )
    ).token
    const card = await h.tppA.call('GET', '/accounts/acc-amelia-card', { token: detail })
    expect(card.body.Data.Account[0].Account[0].Identification).toBe('************5678')
    const tx = await h.tppA.call('GET', '/accounts/acc-amelia-card/transactions', { token: detail })
    const withCard = tx.body.Data.Transaction.find((t: { CardInstrument?: unknown }) => t.CardInstrument)
    expect(withCard.CardInstrument).toMatchObject({ CardSchemeName: 'MasterCard', Identification: '************5678' })
    const basic = (await h.tppA.authorised(['ReadAccountsBasic'], 'psu-amelia', AMELIA)).token
    const b = await h.tppA.call('GET', '/accounts/acc-amelia-card', { token: basic })
    expect(b.body.Data.Account[0].Account).toBeUndefined()
    expect(b.body.Data.Account[0].Servicer).toBeUndefined()
    expect(b.body.Data.Account[0].AccountTypeCode).toBe('CARD')
  })

  it('returns ITAV balances; the credit card also its credit limit and available credit', async () => {
    const res = await h.tppA.call('GET', '/accounts/acc-amelia-card/balances', { token: full })
    expect(res.status).toBe(200)
    const [b] = res.body.Data.Balance
    expect(b).toMatchObject({ AccountId: 'acc-amelia-card', Type: 'ITAV', CreditDebitIndicator: 'Debit' })
    expect(b.DateTime).toMatch(DATE_TIME_TZ)
    expect(b.Amount.Amount).toMatch(AMOUNT)
    expect(b.CreditLine).toEqual([
      { Included: false, Type: 'Credit', Amount: { Amount: '5500.00', Currency: 'GBP' } },
      { Included: false, Type: 'Available', Amount: { Amount: expect.stringMatching(AMOUNT), Currency: 'GBP' } },
    ])
    const owed = Number(b.Amount.Amount)
    expect(Number(b.CreditLine[1].Amount.Amount)).toBeCloseTo(5500 - owed, 2)

    const current = await h.tppA.call('GET', '/accounts/acc-amelia-current/balances', { token: full })
    const [c] = current.body.Data.Balance
    expect(c.Type).toBe('ITAV')
    expect(c.CreditLine).toEqual([
      { Included: false, Type: 'Pre-Agreed', Amount: { Amount: '500.00', Currency: 'GBP' } },
    ])
    // ITAV = booked balance (the newest booked transaction's running balance) less pending debits.
    const tx = await h.tppA.call('GET', '/accounts/acc-amelia-current/transactions', { token: full })
    const txs = tx.body.Data.Transaction as Array<{
      Status: string
      CreditDebitIndicator: string
      Amount: { Amount: string }
      Balance?: { CreditDebitIndicator: string; Amount: { Amount: string } }
    }>
    const signed = (x: { CreditDebitIndicator: string; Amount: { Amount: string } }) =>
      (x.CreditDebitIndicator === 'Credit' ? 1 : -1) * Number(x.Amount.Amount)
    const newestBooked = txs.find((t) => t.Status === 'BOOK')!
    const pendingDebits = txs
      .filter((t) => t.Status === 'PDNG' && t.CreditDebitIndicator === 'Debit')
      .reduce((s, t) => s + Number(t.Amount.Amount), 0)
    expect(signed(c)).toBeCloseTo(signed(newestBooked.Balance!) - pendingDebits, 2)
  })

  it('serves standing orders, direct debits and beneficiaries on the current account; empty (200) on the credit card', async () => {
    const so = await h.tppA.call('GET', '/accounts/acc-amelia-current/standing-orders', { token: full })
    expect(so.status).toBe(200)
    const rent = so.body.Data.StandingOrder.find((s: { StandingOrderId: string }) => s.StandingOrderId === 'SO-AH-0001')
    expect(rent).toMatchObject({
      AccountId: 'acc-amelia-current',
      StandingOrderStatusCode: 'ACTV',
      FirstPaymentAmount: { Amount: '1150.00', Currency: 'GBP' },
      MandateRelatedInformation: { Frequency: { Type: 'MNTH', PointInTime: '01' } },
      CreditorAccount: {
        SchemeName: 'UK.OBIE.SortCodeAccountNumber',
        Identification: '60837125830192',
        Name: 'Hollis Lettings Ltd',
      },
      RemittanceInformation: { Unstructured: ['FLAT 4 ELM GROVE RENT'] },
    })
    expect(Date.parse(rent.NextPaymentDateTime)).toBeGreaterThan(h.clock.nowMs() - 86_400_000)
    expect(Date.parse(rent.LastPaymentDateTime)).toBeLessThanOrEqual(h.clock.nowMs())

    const dd = await h.tppA.call('GET', '/accounts/acc-amelia-current/direct-debits', { token: full })
    const names = dd.body.Data.DirectDebit.map((d: { Name: string }) => d.Name)
    expect(names).toEqual(expect.arrayContaining(['OCTOPUS ENERGY', 'THAMES WATER', 'OBC CARD SERVICES']))
    const octopus = dd.body.Data.DirectDebit.find((d: { Name: string }) => d.Name === 'OCTOPUS ENERGY')
    expect(octopus).toMatchObject({
      DirectDebitStatusCode: 'ACTV',
      MandateRelatedInformation: {
        MandateIdentification: 'OE-A-7731-0042',
        Classification: 'VARI',
        Frequency: { Type: 'MNTH', PointInTime: '12' },
      },
    })
    expect(octopus.PreviousPaymentAmount.Amount).toMatch(AMOUNT)

    const ben = await h.tppA.call('GET', '/accounts/acc-amelia-current/beneficiaries', { token: full })
    expect(ben.body.Data.Beneficiary[0]).toMatchObject({
      BeneficiaryId: 'BEN-AH-0001',
      BeneficiaryType: 'Trusted',
      Reference: 'TOM DINNER',
      CreditorAccount: { Identification: '20325498765432', Name: 'Tom Hughes' },
    })

    for (const path of ['beneficiaries', 'direct-debits', 'standing-orders', 'scheduled-payments']) {
      const res = await h.tppA.call('GET', `/accounts/acc-amelia-card/${path}`, { token: full })
      expect(res.status, path).toBe(200)
      expect(Object.values(res.body.Data)[0], path).toEqual([])
    }
  })

  it('serves offers and statements on the credit card; empty (200) on the current account', async () => {
    const offers = await h.tppA.call('GET', '/accounts/acc-amelia-card/offers', { token: full })
    expect(offers.body.Data.Offer.map((o: { OfferType: string }) => o.OfferType)).toEqual([
      'BalanceTransfer',
      'LimitIncrease',
      'PromotionalRate',
    ])
    expect(offers.body.Data.Offer[1]).toMatchObject({ Amount: { Amount: '7000.00', Currency: 'GBP' } })

    const statements = await h.tppA.call('GET', '/accounts/acc-amelia-card/statements', { token: full })
    const list = statements.body.Data.Statement
    expect(list.length).toBeGreaterThanOrEqual(13)
    const latest = list[0]
    expect(latest).toMatchObject({ AccountId: 'acc-amelia-card', Type: 'RegularPeriodic' })
    expect(latest.StatementAmount.map((a: { Type: string }) => a.Type)).toEqual(
      expect.arrayContaining(['UK.OBIE.ClosingBalance', 'UK.OBIE.MinimumPaymentDue', 'UK.OBIE.CreditLimit']),
    )
    expect(latest.StatementDateTime).toEqual(
      expect.arrayContaining([{ DateTime: expect.stringMatching(DATE_TIME_TZ), Type: 'UK.OBIE.PaymentDue' }]),
    )

    const one = await h.tppA.call('GET', `/accounts/acc-amelia-card/statements/${latest.StatementId}`, { token: full })
    expect(one.body.Data.Statement).toEqual([latest])

    // The statement's transactions: booked in its period, adding up from its opening to its closing balance.
    const stx = await h.tppA.call('GET', `/accounts/acc-amelia-card/statements/${latest.StatementId}/transactions`, {
      token: full,
    })
    expect(stx.status).toBe(200)
    const inPeriod = stx.body.Data.Transaction as Array<{
      BookingDateTime: string
      Status: string
      StatementReference: string[]
      CreditDebitIndicator: string
      Amount: { Amount: string }
    }>
    expect(inPeriod.length).toBeGreaterThan(5)
    for (const t of inPeriod) {
      expect(t.Status).toBe('BOOK')
      expect(Date.parse(t.BookingDateTime)).toBeGreaterThanOrEqual(Date.parse(latest.StartDateTime))
      expect(Date.parse(t.BookingDateTime)).toBeLessThanOrEqual(Date.parse(latest.EndDateTime))
      expect(t.StatementReference).toEqual([latest.StatementReference])
    }
    const amount = (type: string) => {
      const a = latest.StatementAmount.find((x: { Type: string }) => x.Type === type)
      return (a.CreditDebitIndicator === 'Credit' ? 1 : -1) * Number(a.Amount.Amount)
    }
    const net = inPeriod.reduce(
      (s, t) => s + (t.CreditDebitIndicator === 'Credit' ? 1 : -1) * Number(t.Amount.Amount),
      0,
    )
    expect(amount('UK.OBIE.PreviousClosingBalance') + net).toBeCloseTo(amount('UK.OBIE.ClosingBalance'), 2)

    const file = await h.tppA.call('GET', `/accounts/acc-amelia-card/statements/${latest.StatementId}/file`, {
      token: full,
      headers: { accept: 'application/pdf' },
    })
    expect(file.status).toBe(200)
    expect(file.headers['content-type']).toBe('application/pdf')
    expect(file.raw.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(file.raw.subarray(-8).toString('latin1')).toContain('%%EOF')
    const pdf = await PDFDocument.load(file.raw, { updateMetadata: false })
    expect(pdf.getTitle()).toBe(`Statement ${latest.StatementReference}`)
    expect(pdf.getPageCount()).toBeGreaterThanOrEqual(1)

    const jsonOnly = await h.tppA.call('GET', `/accounts/acc-amelia-card/statements/${latest.StatementId}/file`, {
      token: full,
      headers: { accept: 'application/json' },
    })
    expect(jsonOnly.status).toBe(406)

    for (const path of ['offers', 'statements']) {
      const res = await h.tppA.call('GET', `/accounts/acc-amelia-current/${path}`, { token: full })
      expect(res.status, path).toBe(200)
      expect(Object.values(res.body.Data)[0], path).toEqual([])
    }
    const noStatement = await h.tppA.call('GET', '/accounts/acc-amelia-current/statements/anything', { token: full })
    expect(noStatement.status).toBe(400)
    expect(noStatement.body.Errors[0].ErrorCode).toBe('U011')
  })

  it('serves the PSU party, the account owner and all parties of an account', async () => {
    const psu = await h.tppA.call('GET', '/party', { token: full })
    expect(psu.body.Data.Party).toMatchObject({
      PartyId: 'PTY-10044721',
      Name: 'Amelia Hughes',
      LegalStructure: 'UK.OBIE.Individual',
      Mobile: '+44-7700900431',
    })
    const owner = await h.tppA.call('GET', '/accounts/acc-amelia-current/party', { token: full })
    expect(owner.body.Data.Party).toMatchObject({
      PartyId: 'PTY-10044721',
      PartyType: 'Sole',
      AccountRole: 'UK.OBIE.Principal',
      Relationships: {
        Account: {
          Id: 'acc-amelia-current',
          Related: `${h.baseUrl}/open-banking/v4.0/aisp/accounts/acc-amelia-current`,
        },
      },
    })
    const parties = await h.tppA.call('GET', '/accounts/acc-amelia-card/parties', { token: full })
    expect(parties.body.Data.Party).toHaveLength(1)

    const joint = (await h.tppA.authorised(['ReadAccountsBasic', 'ReadParty'], 'psu-rahul', ['acc-rahul-current']))
      .token
    const both = await h.tppA.call('GET', '/accounts/acc-rahul-current/parties', { token: joint })
    expect(
      both.body.Data.Party.map((p: { Name: string; PartyType: string; AccountRole: string }) => [
        p.Name,
        p.PartyType,
        p.AccountRole,
      ]),
    ).toEqual([
      ['Rahul Mehta', 'Joint', 'UK.OBIE.Principal'],
      ['Priya Mehta', 'Joint', 'UK.OBIE.SecondaryOwner'],
    ])
    const business = (
      await h.tppA.authorised(['ReadAccountsBasic', 'ReadParty', 'ReadPartyPSU'], 'psu-grace', ['acc-grace-current'])
    ).token
    const company = await h.tppA.call('GET', '/accounts/acc-grace-current/party', { token: business })
    expect(company.body.Data.Party).toMatchObject({
      Name: 'Okafor Studio Ltd',
      LegalStructure: 'UK.OBIE.PrivateLimitedCompany',
    })
    expect((await h.tppA.call('GET', '/party', { token: business })).body.Data.Party.Name).toBe('Grace Okafor')
  })

  it('serves products and scheduled payments', async () => {
    const products = await h.tppA.call('GET', '/products', { token: full })
    expect(products.body.Data.Product).toEqual(
      expect.arrayContaining([
        {
          AccountId: 'acc-amelia-current',
          ProductId: 'PCA-EVERYDAY-02',
          ProductName: 'Everyday Current Account',
          ProductType: 'PersonalCurrentAccount',
          SecondaryProductId: 'EVD2',
        },
        expect.objectContaining({
          AccountId: 'acc-amelia-card',
          ProductType: 'Other',
          OtherProductType: { Name: 'Credit card', Description: expect.any(String) },
        }),
      ]),
    )
    const one = await h.tppA.call('GET', '/accounts/acc-amelia-card/product', { token: full })
    expect(one.body.Data.Product).toHaveLength(1)

    const scheduled = await h.tppA.call('GET', '/scheduled-payments', { token: full })
    expect(scheduled.status).toBe(200)
    for (const s of scheduled.body.Data.ScheduledPayment) {
      expect(s).toMatchObject({
        AccountId: 'acc-amelia-current',
        ScheduledType: 'Execution',
        InstructedAmount: { Amount: expect.stringMatching(AMOUNT), Currency: 'GBP' },
      })
      expect(Date.parse(s.ScheduledPaymentDateTime)).toBeGreaterThan(h.clock.nowMs())
      expect(s.CreditorAccount.SchemeName).toBe('UK.OBIE.SortCodeAccountNumber')
    }
  })

  it("gates every endpoint by the consent's permissions (403 naming the permission)", async () => {
    const accountsOnly = (await h.tppA.authorised(['ReadAccountsBasic'], 'psu-amelia', AMELIA)).token
    const cases: Array<[string, string]> = [
      ['/balances', 'ReadBalances'],
      ['/accounts/acc-amelia-current/balances', 'ReadBalances'],
      ['/transactions', 'ReadTransactions'],
      ['/accounts/acc-amelia-current/transactions', 'ReadTransactions'],
      ['/beneficiaries', 'ReadBeneficiaries'],
      ['/accounts/acc-amelia-current/direct-debits', 'ReadDirectDebits'],
      ['/standing-orders', 'ReadStandingOrders'],
      ['/accounts/acc-amelia-card/offers', 'ReadOffers'],
      ['/statements', 'ReadStatements'],
      ['/party', 'ReadPartyPSU'],
      ['/accounts/acc-amelia-current/party', 'ReadParty'],
      ['/accounts/acc-amelia-current/parties', 'ReadParty'],
      ['/products', 'ReadProducts'],
      ['/scheduled-payments', 'ReadScheduledPayments'],
    ]
    for (const [path, permission] of cases) {
      const res = await h.tppA.call('GET', path, { token: accountsOnly })
      expect(res.status, path).toBe(403)
      expect(res.body.Errors[0].Message, path).toContain(permission)
    }
    const basicStatements = (
      await h.tppA.authorised(['ReadAccountsBasic', 'ReadStatementsBasic'], 'psu-amelia', AMELIA)
    ).token
    const list = await h.tppA.call('GET', '/accounts/acc-amelia-card/statements', { token: basicStatements })
    expect(list.body.Data.Statement[0].StatementAmount).toBeUndefined()
    const file = await h.tppA.call(
      'GET',
      `/accounts/acc-amelia-card/statements/${list.body.Data.Statement[0].StatementId}/file`,
      { token: basicStatements },
    )
    expect(file.status).toBe(403)
    expect(file.body.Errors[0].Message).toContain('ReadStatementsDetail')
  })

  it('refuses an account outside the consent (403) and an unknown account (400 U011)', async () => {
    const notSelected = (
      await h.tppA.authorised(['ReadAccountsBasic', 'ReadBalances'], 'psu-amelia', ['acc-amelia-current'])
    ).token
    const card = await h.tppA.call('GET', '/accounts/acc-amelia-card/balances', { token: notSelected })
    expect(card.status).toBe(403)
    expect(card.body.Errors[0]).toMatchObject({ ErrorCode: 'U008', Path: 'AccountId' })
    const otherPsu = await h.tppA.call('GET', '/accounts/acc-rahul-current', { token: notSelected })
    expect(otherPsu.status).toBe(403)
    const unknown = await h.tppA.call('GET', '/accounts/acc-nobody', { token: notSelected })
    expect(unknown.status).toBe(400)
    expect(unknown.body.Errors[0]).toMatchObject({ ErrorCode: 'U011', Path: 'AccountId' })
  })
})
