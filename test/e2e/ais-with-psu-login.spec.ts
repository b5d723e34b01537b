import { expect, saveScreen, test } from './fixtures.ts'
import { GuidePage, setUpLocalClient } from './pages/guide-page.ts'
import { localPsu } from './pages/local-psus.ts'
import { PsuPages } from './pages/psu-pages.ts'

test('AIS with the PSU logging in on the sandbox pages in a browser tab; the loopback listener hands the code back', async ({
  app: page,
  context,
}) => {
  const guide = new GuidePage(page)
  await setUpLocalClient(guide, /in a browser tab/)
  await guide.startAis()

  // The flow waits for the PSU: the console offers the bank's page in a new tab.
  const waiting = guide.aisSteps().awaiting()
  await expect(waiting).toBeVisible()
  await expect(guide.aisSteps().step('PSU authorisation')).toHaveAttribute('data-status', 'running')
  // The local sandbox's test PSUs' logins are shown where its login page is reached.
  const logins = waiting.getByRole('table', { name: 'Test PSU logins' })
  await expect(
    logins.getByRole('row', { name: new RegExp(`${localPsu('amelia').username} .*${localPsu('amelia').password}`) }),
  ).toHaveCount(1)
  await saveScreen(page, '04-ais-waiting-for-psu')
  const [tab] = await Promise.all([
    context.waitForEvent('page'),
    waiting.getByRole('link', { name: "Open the bank's authorisation page" }).click(),
  ])

  const amelia = localPsu('amelia')
  const psu = new PsuPages(tab)
  await psu.logIn(amelia.username, amelia.password)
  await psu.approveAccounts()
  // The bank redirects to the console's loopback listener, which passes the fragment on.
  await expect(tab.getByRole('heading', { name: 'Authorisation returned' })).toBeVisible()
  await tab.close()

  await guide.aisSteps().expectAllDone()
  await expect(guide.aisSteps().step('PSU authorisation')).toContainText('code received (loopback)')
  await expect(
    guide
      .aisSteps()
      .step('ID token checks')
      .getByText(/checks pass/),
  ).toBeVisible()
  const accounts = guide.accounts()
  await expect(accounts.first()).toBeVisible()
  // Amelia shares her current account and card (the savings account cannot be shared through AIS).
  await expect(accounts).toHaveCount(2)
  await expect(guide.stage(4)).toContainText(amelia.accounts.find((a) => a.accountTypeCode === 'CARD')!.nickname)
  await saveScreen(page, '05-ais-after-psu-login')
})
