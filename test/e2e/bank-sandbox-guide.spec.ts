import { expect, saveScreen, test } from './fixtures.ts'
import { ConsoleApp } from './pages/console-app.ts'
import { EnvironmentsPage } from './pages/environments-page.ts'
import { GuidePage } from './pages/guide-page.ts'
import { InspectorPage } from './pages/inspector-page.ts'
import { localPsu } from './pages/local-psus.ts'
import { PsuPages } from './pages/psu-pages.ts'

test('the guide on a bank sandbox environment with my own identity: prerequisites, registration, AIS with TLS verification off shown on every exchange', async ({
  app: page,
  context,
  consoleServer,
}) => {
  const shell = new ConsoleApp(page)
  const guide = new GuidePage(page)
  // An identity to bring along (here: the local directory's starter kit).
  await guide.startLocalSandbox()
  await guide.getIdentity()

  // The "bank's sandbox" is an environment the user adds: addresses, TLS verification off as its spec says.
  await shell.open('Environments & identities')
  await new EnvironmentsPage(page).addBankSandbox({
    name: 'Bank sandbox',
    baseUrl: consoleServer.sandbox.baseUrl,
    authUrl: consoleServer.sandbox.authUrl,
    tppName: 'Local sandbox TPP',
  })
  await saveScreen(page, '16-environment-added')

  await shell.open('Guide')
  await page.getByRole('radio', { name: /The bank's sandbox, with my own TPP identity/ }).check()
  await guide.stage(1).getByLabel('Environment').selectOption({ label: 'Bank sandbox' })
  await guide.expectStageDone(1)
  await guide.stage(2).getByLabel('TPP identity').selectOption({ label: 'Local sandbox TPP' })
  await expect(guide.stage(2).getByRole('group', { name: 'Prerequisites' })).toBeVisible()
  await guide.expectStageDone(2)
  // No headless choice on a bank environment: the PSU logs in.
  await expect(guide.stage(3).getByRole('radio', { name: /^Headless/ })).toHaveCount(0)
  await guide.chooseCapture(/in a browser tab/)
  await guide.register()

  await guide.setPsuIp('192.0.2.10')
  await guide.startAis()
  const waiting = guide.aisSteps().awaiting()
  await expect(waiting).toBeVisible()
  const [tab] = await Promise.all([
    context.waitForEvent('page'),
    waiting.getByRole('link', { name: "Open the bank's authorisation page" }).click(),
  ])
  const rahul = localPsu('rahul')
  const psu = new PsuPages(tab)
  await psu.logIn(rahul.username, rahul.password)
  await psu.approveAccounts()
  await expect(tab.getByRole('heading', { name: 'Authorisation returned' })).toBeVisible()
  await tab.close()
  await guide.aisSteps().expectAllDone()
  // Rahul's current account only: his savings account cannot be shared through AIS.
  await expect(guide.accounts()).toHaveCount(1)
  await saveScreen(page, '17-bank-sandbox-guide')

  await guide.aisSteps().exchangeLinks('Accounts').first().click()
  const inspector = new InspectorPage(page)
  await inspector.tab('Timings & TLS').click()
  await expect(inspector.detail().getByRole('note')).toContainText('Server certificate NOT verified')
  await saveScreen(page, '18-inspector-tls-off')
})
