import { expect, saveScreen, test } from './fixtures.ts'
import { ConsoleApp } from './pages/console-app.ts'
import { FlowsPage } from './pages/flows-page.ts'
import { GuidePage, setUpLocalClient } from './pages/guide-page.ts'

const BEFORE_ACCOUNTS = [
  'Discovery',
  'Client-credentials token',
  'Account access consent',
  'Authorisation URL',
  'PSU authorisation',
  'ID token checks',
  'Code exchange',
]

test('PSU absent: each data step says what it spends before it runs; the consents view lists the consent, reads it at the bank and revokes it, and the bank then refuses its data', async ({
  app: page,
}) => {
  test.setTimeout(180_000)
  const shell = new ConsoleApp(page)
  const guide = new GuidePage(page)
  await setUpLocalClient(guide)

  await shell.open('Consent flows')
  const flows = new FlowsPage(page)
  await flows.openForm('ais')
  await flows.chooseCapture('ais', /^Headless/)
  const form = flows.form('ais')
  await form.getByLabel('Consent expires in days (optional)').fill('30')
  await form.getByRole('checkbox', { name: /PSU present/ }).uncheck()
  await form.getByRole('button', { name: 'Start without running' }).click()
  const flow = flows.current()
  for (const title of BEFORE_ACCOUNTS) {
    await flow
      .step(title)
      .getByRole('button', { name: `Run step ${title}` })
      .click()
    await expect(flow.step(title)).toHaveAttribute('data-status', 'done', { timeout: 30_000 })
  }

  // Before the account list is read: what the call spends, in words.
  const beforeAccounts = flow.step('Accounts').getByRole('note', { name: 'PSU-absent allowance before Accounts' })
  await expect(beforeAccounts).toContainText('Before it runs')
  await expect(beforeAccounts).toContainText(
    'This call spends 1 of the 4 accesses to /accounts left today (a rolling 24 hours; 4 in all); none used yet.',
  )
  await flow.step('Accounts').getByRole('button', { name: 'Run step Accounts' }).click()
  await expect(flow.step('Accounts')).toHaveAttribute('data-status', 'done', { timeout: 30_000 })
  await expect(beforeAccounts).toContainText('If run again')
  await expect(beforeAccounts).toContainText(
    /This call spends 1 of the 3 accesses to \/accounts left today .* the next used one comes back at .* \(in 23 h 59 min\)\./,
  )

  // Balances: one line per account, before the step runs.
  const beforeBalances = flow.step('Balances').getByRole('note', { name: 'PSU-absent allowance before Balances' })
  await expect(beforeBalances.getByRole('listitem')).toHaveCount(2)
  await expect(beforeBalances).toContainText(
    /This call spends 1 of the 4 accesses to \/accounts\/acc-[a-z-]+\/balances left today/,
  )
  await saveScreen(page, 'psu-absent-before-balances')
  await page.getByRole('button', { name: 'Run remaining steps' }).click()
  await expect(flow.step('Transactions')).toHaveAttribute('data-status', 'done', { timeout: 90_000 })
  await expect(beforeBalances.getByRole('listitem').first()).toContainText('1 of the 3 accesses')

  // The consents view: the consent of this client, as the console recorded it.
  await shell.open('Consents')
  const consent = page.getByRole('article', { name: /^Consent / })
  await expect(consent).toHaveCount(1)
  await expect(page.getByRole('region', { name: /^Consents of client / })).toHaveCount(1)
  // The status the flow last saw: the PSU authorised it (the code was exchanged).
  await expect(consent).toContainText('Authorised (AUTH)')
  await expect(consent.getByLabel('Expiry')).toHaveText(/^Expires .* \(in 29 d 23 h\)$/)
  await expect(consent.getByLabel('Last SCA')).toContainText(
    /Last SCA .*; the 90-day window closes .* \(in 89 d 23 h\)/,
  )
  const budget = consent.getByRole('table', { name: 'PSU-absent calls left' })
  await expect(budget.getByRole('row', { name: /· Balances: 3 of 4 left/ })).toHaveCount(2)

  // GET at the bank: the same status, and its permissions.
  const consentId = (await consent.getAttribute('aria-label'))!.replace(/^Consent /, '')
  await consent.getByRole('button', { name: `Read from the bank: consent ${consentId}` }).click()
  await expect(consent).toContainText('ReadAccountsDetail', { timeout: 30_000 })
  await expect(consent).toContainText('Authorised (AUTH)')
  await expect(consent).toContainText('The bank says AUTH')

  // Revoke, after a confirmation.
  await consent.getByRole('button', { name: `Revoke consent ${consentId}` }).click()
  const confirm = consent.getByRole('alertdialog', { name: `Confirm revoking consent ${consentId}` })
  await expect(confirm).toContainText('create a new consent and have the PSU authorise it')
  await confirm.getByRole('button', { name: 'Revoke it' }).click()
  await expect(consent).toContainText('Revoked (deleted at the bank by this console)', { timeout: 30_000 })
  await expect(consent.getByRole('button', { name: `Revoke consent ${consentId}` })).toHaveCount(0)
  await saveScreen(page, 'consent-revoked')
  // The bank agrees: reading it again is refused as deleted...
  await consent.getByRole('button', { name: `Read from the bank: consent ${consentId}` }).click()
  await expect(consent.getByRole('alert')).toContainText('deleted', { timeout: 30_000 })

  // ...and its data calls answer that the consent was revoked (status CANC).
  await shell.open('Consent flows')
  await flow.step('Balances').getByRole('button', { name: 'Re-run step Balances' }).click()
  await expect(flow.step('Balances')).toHaveAttribute('data-status', 'failed', { timeout: 30_000 })
  await expect(flow.step('Balances').getByRole('alert')).toContainText('CANC')
})
