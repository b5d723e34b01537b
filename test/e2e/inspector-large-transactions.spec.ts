import { expect, saveScreen, test } from './fixtures.ts'
import { ConsoleApp } from './pages/console-app.ts'
import { GuidePage, setUpLocalClient } from './pages/guide-page.ts'
import { InspectorPage } from './pages/inspector-page.ts'

test('the inspector lists every exchange (virtualised) and opens a large transactions page in the editor', async ({
  app: page,
  consoleServer,
}) => {
  const shell = new ConsoleApp(page)
  const guide = new GuidePage(page)
  await setUpLocalClient(guide)
  await guide.startAis()
  await guide.aisSteps().expectAllDone()

  await shell.open('Inspector')
  const inspector = new InspectorPage(page)
  const total = Number(await inspector.list().getAttribute('data-count'))
  expect(total).toBeGreaterThan(30)
  // Only the rows in view are in the DOM.
  expect(await inspector.rows().count()).toBeLessThan(total)

  await inspector.filterPath().fill('/transactions')
  await expect(inspector.list()).not.toHaveAttribute('data-count', String(total))
  const rows = inspector.list().locator('button.exchange-row')
  await expect(rows.first()).toContainText('/transactions')
  // Pick the largest response.
  const sizes = await rows.evaluateAll((els) => els.map((e) => e.textContent ?? ''))
  const kb = sizes.map((t) => Number(/([\d.]+) KB/.exec(t)?.[1] ?? 0))
  const largest = kb.indexOf(Math.max(...kb))
  expect(kb[largest]).toBeGreaterThan(40)
  const started = Date.now()
  await rows.nth(largest).click()
  await expect(inspector.detail()).toContainText('200')
  const body = inspector.responseBody()
  await expect(body.locator('.view-lines')).toContainText('TransactionId')
  const shownMs = Date.now() - started
  expect(shownMs).toBeLessThan(10_000)
  test.info().annotations.push({ type: 'large body shown in', description: `${shownMs} ms (${kb[largest]} KB)` })

  // Search inside the body with Monaco's find widget.
  await body.locator('.monaco-editor').click()
  await page.keyboard.press('Control+f')
  await page.keyboard.type('BookingDateTime')
  await expect(body.locator('.find-widget .matchesCount')).toContainText(/of \d+/)
  await page.keyboard.press('Escape')

  await inspector.tab('Timings & TLS').click()
  await expect(inspector.detail()).toContainText('Server certificate verified.')
  await expect(inspector.detail().getByLabel('Timings', { exact: true })).toContainText('Total')
  await inspector.tab('Request').click()
  const headers = inspector.detail().getByRole('table', { name: 'Request headers' })
  await expect(headers).toContainText('authorization')
  // The token is masked (first 8 … last 8), never whole.
  await expect(headers).toContainText(/Bearer \S{8}…\S{8}/)

  // Copy as curl: masked.
  await inspector.detail().getByRole('button', { name: 'Copy as curl' }).click()
  const curl = inspector.detail().getByLabel(/^curl command/)
  await expect(curl).toHaveValue(/^curl -sS -X GET .*transactions/m)
  await expect(curl).toHaveValue(/Bearer \S{8}…\S{8}/)
  // Reveal that one item: the view shows it in this tab; the curl, even made again, does not.
  await inspector
    .detail()
    .getByText(/^Secrets in this exchange/)
    .click()
  const secrets = inspector.detail().getByRole('table', { name: 'Secrets in this exchange' })
  await secrets.getByRole('button', { name: 'Reveal authorization (request headers)' }).click()
  await expect(secrets).toContainText('revealed here')
  await expect(headers).not.toContainText('…')
  await expect(headers).toContainText(/Bearer [^\s…]{20,}/)
  await expect(curl).toHaveValue(/Bearer \S{8}…\S{8}/)
  await inspector.detail().getByRole('button', { name: 'Copy as curl' }).click()
  await expect(curl).toHaveValue(/Bearer \S{8}…\S{8}/)
  await saveScreen(page, '10-inspector-large-transactions')

  // HAR export, saved as a file: masked too.
  await inspector.detail().getByRole('button', { name: 'Export HAR' }).click()
  const harText = await inspector.detail().getByLabel(/^HAR/).inputValue()
  const har = JSON.parse(harText) as { log: { entries: unknown[] } }
  expect(har.log.entries).toHaveLength(1)
  expect(harText).toMatch(/"Bearer \S{8}…\S{8}"/)
  expect(harText).not.toMatch(/"Bearer [^\s…"]{20,}"/)
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    inspector.detail().getByRole('button', { name: 'Save as file' }).click(),
  ])
  expect(download.suggestedFilename()).toMatch(/^exchange-.*\.har$/)

  // Another tab that never pressed Reveal: the same exchange, masked.
  const exchangeId = await inspector.detail().getAttribute('data-exchange-id')
  const other = await page.context().newPage()
  await other.goto(consoleServer.url)
  await new ConsoleApp(other).open('Inspector')
  const otherInspector = new InspectorPage(other)
  await otherInspector.filterPath().fill('/transactions')
  // The filter applies after its debounce: wait for it, then open the same exchange by its id.
  await expect(otherInspector.list()).not.toHaveAttribute('data-count', String(total))
  await otherInspector.list().locator(`button.exchange-row[data-exchange-id="${exchangeId}"]`).click()
  await expect(otherInspector.detail()).toHaveAttribute('data-exchange-id', exchangeId!)
  await otherInspector.tab('Request').click()
  const otherHeaders = otherInspector.detail().getByRole('table', { name: 'Request headers' })
  await expect(otherHeaders).toContainText(/Bearer \S{8}…\S{8}/)
  await other.close()

  // Mask again: this tab's view is masked at once, and Reveal is offered again.
  await secrets.getByRole('button', { name: 'Mask authorization (request headers) again' }).click()
  await expect(headers).toContainText(/Bearer \S{8}…\S{8}/)
  await expect(secrets.getByRole('button', { name: 'Reveal authorization (request headers)' })).toBeVisible()
  // Revealed again, then another exchange is picked and this one picked back: masked.
  await secrets.getByRole('button', { name: 'Reveal authorization (request headers)' }).click()
  await expect(headers).toContainText(/Bearer [^\s…]{20,}/)
  await rows.nth(largest === 0 ? 1 : 0).click()
  await expect(inspector.detail()).not.toHaveAttribute('data-exchange-id', exchangeId!)
  await rows.nth(largest).click()
  await expect(inspector.detail()).toHaveAttribute('data-exchange-id', exchangeId!)
  await inspector.tab('Request').click()
  await expect(headers).toContainText(/Bearer \S{8}…\S{8}/)

  // Dark theme follows the OS.
  await page.emulateMedia({ colorScheme: 'dark' })
  await inspector.tab('Response').click()
  await expect(body.locator('.monaco-editor')).toHaveClass(/vs-dark/)
  await saveScreen(page, '15-inspector-dark')
})
