import { expect, saveScreen, test } from './fixtures.ts'
import { ConsoleApp } from './pages/console-app.ts'
import { GuidePage } from './pages/guide-page.ts'

test('guided onboarding on the local sandbox: from nothing to accounts on screen and a completed payment', async ({
  app: page,
}) => {
  const shell = new ConsoleApp(page)
  const guide = new GuidePage(page)
  // A new install opens on the guide.
  await expect(shell.nav('Guide')).toHaveAttribute('aria-current', 'page')
  await saveScreen(page, '01-guide-new-install')

  await guide.startLocalSandbox()
  await guide.getIdentity()
  const clientId = await guide.register()
  expect(clientId).not.toBe('')

  await guide.startAis()
  await guide.aisSteps().expectAllDone()
  await expect(guide.accounts().first()).toBeVisible({ timeout: 30_000 })
  // Every step says what it does.
  await expect(guide.aisSteps().step('Account access consent')).toContainText('Creates the account access consent')
  await expect(guide.stage(4).getByRole('table', { name: 'Balances' }).first()).toContainText('ITAV')
  await guide.expectStageDone(4)

  // By keyboard: the AIS run left the focus on its result (the last step's heading, in stage 4), and the
  // payment is at most 10 Tabs from there (WCAG 2.4.1: no long way round to the next action).
  await expect(guide.stage(4).locator('h3:focus')).toHaveCount(1)
  const pay = guide.stage(5).getByRole('button', { name: /^Make a .* payment$/ })
  let tabs = 0
  while (tabs < 30 && !(await pay.evaluate((el) => el === document.activeElement))) {
    await page.keyboard.press('Tab')
    tabs++
  }
  test.info().annotations.push({ type: 'Tabs from the AIS result to the payment', description: String(tabs) })
  expect(tabs).toBeLessThanOrEqual(10)
  await page.keyboard.press('Enter')
  await guide.pisSteps().expectAllDone()
  await guide.expectStageDone(5)
  await expect(page.getByRole('status').filter({ hasText: 'the payment is complete' })).toBeVisible()
  await saveScreen(page, '02-guide-complete')

  // Each step's exchange is one click away.
  await guide.aisSteps().exchangeLinks('Account access consent').first().click()
  await expect(shell.nav('Inspector')).toHaveAttribute('aria-current', 'page')
  const detail = page.getByRole('region', { name: 'Exchange detail' })
  await expect(detail).toContainText('account-access-consents')
  await expect(detail).toContainText('201')
  await saveScreen(page, '03-inspector-consent')

  // The same data in the other views.
  await shell.open('Account data')
  await expect(page.getByRole('article', { name: /^Account / }).first()).toBeVisible()
  await expect(page.getByRole('table', { name: 'Transactions' }).first()).toBeVisible()
  await expect(page.getByRole('table', { name: 'Other resources' }).first()).toContainText('product rule')
  await saveScreen(page, '12-account-data')
  await shell.open('Consent flows')
  await expect(page.getByRole('list', { name: 'Flows' }).getByRole('button')).toHaveCount(2)
  await saveScreen(page, '13-consent-flows')
  await shell.open('Environments & identities')
  await expect(page.getByRole('region', { name: /^TPP identity / })).toBeVisible()
  await expect(page.getByRole('article', { name: 'Transport certificate' })).toContainText('tls_client_auth_subject_dn')
  await page.getByRole('button', { name: 'Check prerequisites' }).click()
  await expect(page.getByRole('group', { name: 'Prerequisites' })).toBeVisible()
  await saveScreen(page, '14-environments-identities')
})
