import type { Page } from '@playwright/test'
import { expect, saveScreen, test } from './fixtures.ts'
import { ConsoleApp, type ViewName } from './pages/console-app.ts'
import { DataPage } from './pages/data-page.ts'
import { FlowsPage } from './pages/flows-page.ts'
import { GuidePage, setUpLocalClient } from './pages/guide-page.ts'

test.use({ viewport: { width: 1024, height: 700 } })

/** Nothing wider than the window: no horizontal scrolling of the page. */
async function expectNoHorizontalScroll(page: Page, where: string): Promise<void> {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }))
  expect(scroll, `${where}: the page is ${scroll} px wide in a ${client} px window`).toBeLessThanOrEqual(client)
}

test('the main screens at 1024×700: data table, payment form, environments, help panel; screenshots kept in test-results/screens', async ({
  app: page,
}) => {
  const shell = new ConsoleApp(page)
  const guide = new GuidePage(page)
  await setUpLocalClient(guide)
  await guide.startAis()
  await guide.aisSteps().expectAllDone()
  await expectNoHorizontalScroll(page, 'Guide')
  await saveScreen(page, '1024x700-01-guide')

  await shell.open('Account data')
  const data = new DataPage(page)
  await expect(data.body()).toBeVisible()
  const total = Number(await data.count().getAttribute('data-total'))
  expect(total).toBeGreaterThan(1000)
  // The table's scroller fits the window and still shows a screenful of rows.
  const box = (await data.body().boundingBox())!
  expect(box.height).toBeGreaterThanOrEqual(240)
  expect(box.x + box.width).toBeLessThanOrEqual(1024)
  await expect(data.rows().first()).toBeVisible()
  await expectNoHorizontalScroll(page, 'Account data')
  await data.body().scrollIntoViewIfNeeded()
  await page.screenshot({ path: 'test-results/screens/1024x700-02-transactions-viewport.png' })
  await saveScreen(page, '1024x700-03-account-data')

  await shell.open('Consent flows')
  const flows = new FlowsPage(page)
  await flows.openForm('pis')
  await flows.form('pis').getByLabel('Amount', { exact: true }).fill('10.999')
  await expect(flows.form('pis').getByRole('list', { name: 'Problems' })).toBeVisible()
  await expectNoHorizontalScroll(page, 'Payment form')
  await saveScreen(page, '1024x700-04-payment-form')

  for (const view of ['Environments & identities', 'Inspector', 'Registration'] as ViewName[]) {
    await shell.open(view)
    await expectNoHorizontalScroll(page, view)
    await saveScreen(page, `1024x700-05-${view.replace(/\W+/g, '-').toLowerCase()}`)
  }

  await page.locator('body').click({ position: { x: 5, y: 5 } })
  await page.keyboard.press('Shift+?')
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
  await expect(help).toBeVisible()
  const helpBox = (await help.boundingBox())!
  expect(helpBox.x + helpBox.width).toBeLessThanOrEqual(1024)
  await page.screenshot({ path: 'test-results/screens/1024x700-06-help-panel.png' })
})
