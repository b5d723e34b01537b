import { readFileSync } from 'node:fs'
import type { Locator, Page } from '@playwright/test'
import { expect, saveScreen, test } from './fixtures.ts'
import { ConsoleApp } from './pages/console-app.ts'
import { FlowsPage } from './pages/flows-page.ts'
import { GuidePage, setUpLocalClient } from './pages/guide-page.ts'
import { InspectorPage } from './pages/inspector-page.ts'
import { SequencePart } from './pages/sequence-part.ts'

test.use({ viewport: { width: 1024, height: 700 } })

/** Fully inside the 1024×700 window: left, right and top edges (the bottom may scroll within its pane). */
async function expectInWindow(
  box: Locator,
  what: string,
): Promise<{ x: number; y: number; width: number; height: number }> {
  const b = (await box.boundingBox())!
  expect(b, what).not.toBeNull()
  expect(b.x, `${what} left edge`).toBeGreaterThanOrEqual(0)
  expect(b.x + b.width, `${what} right edge`).toBeLessThanOrEqual(1024)
  expect(b.y, `${what} top`).toBeLessThan(700 - 120)
  return b
}

async function noHorizontalScroll(page: Page): Promise<void> {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }))
  expect(scroll).toBeLessThanOrEqual(client)
}

async function download(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent('download'), click()])
  return { name: file.suggestedFilename(), text: readFileSync((await file.path())!, 'utf8') }
}

test('the inspector explains each exchange: diagnosis, JWT checks, links past the filter, 1024×700, reveal in body only', async ({
  app: page,
}) => {
  const shell = new ConsoleApp(page)
  await setUpLocalClient(new GuidePage(page))

  // A payment the bank rejects: the consent POST answers 400 with Errors[].
  await shell.open('Consent flows')
  const flows = new FlowsPage(page)
  await flows.openForm('pis')
  const form = flows.form('pis')
  await form.getByLabel('Amount', { exact: true }).fill('10.999')
  await form.getByRole('checkbox', { name: /Send even if the console finds problems/ }).check()
  await form.getByRole('button', { name: 'Start payment flow and run' }).click()
  const consent = flows.current().step('Domestic payment consent')
  await expect(consent).toHaveAttribute('data-status', 'failed', { timeout: 60_000 })

  // The inspector filtered to 2xx: the rejected consent is not in its list.
  await shell.open('Inspector')
  const inspector = new InspectorPage(page)
  await page.getByRole('search', { name: 'Filter exchanges' }).getByLabel('Status').selectOption('2xx')
  await expect(inspector.rows().first()).toBeVisible()
  const listed = await inspector.list().locator('button.exchange-row').allTextContents()
  expect(listed.some((t) => /400/.test(t))).toBe(false)

  // The step card's link reaches it all the same.
  await shell.open('Consent flows')
  const link = flows.current().exchangeLinks('Domestic payment consent').last()
  await link.click()
  await expect(inspector.detail()).toContainText('domestic-payment-consents')
  await expect(
    inspector.detail().getByRole('status').filter({ hasText: "The list's filters hide this exchange" }),
  ).toBeVisible()

  // Its diagnosis: the coded error, each ErrorCode explained, where the rule is written.
  const diagnosis = inspector.detail().getByRole('region', { name: 'Diagnosis' })
  await expect(diagnosis).toHaveAttribute('data-code', 'OB_ERROR')
  await expect(diagnosis).toContainText('U002')
  await expect(diagnosis.getByRole('list', { name: 'Error entries' })).toContainText(
    'Data.Initiation.InstructedAmount.Amount',
  )
  await expect(diagnosis.getByRole('list', { name: 'Error entries' })).toContainText('not allowed')
  await expect(
    diagnosis.getByRole('link', { name: /OB Read\/Write Data API Profile v4\.0: Error Response Structure/ }),
  ).toBeVisible()

  // Its JWTs: the TPP's x-jws-signature checked against the TPP's key, every check shown.
  const signature = inspector
    .detail()
    .getByRole('article', { name: 'Checks of the JWT in request header x-jws-signature' })
  await expect(signature).toContainText('✓ all pass', { timeout: 30_000 })
  await expect(signature).toContainText(/the TPP's public signing key \(kid /)
  await signature.getByText(/^Checks \(tpp-jws-signature\)/).click()
  await expect(signature.locator('li.check[data-check="signature"]')).toHaveAttribute('data-pass', 'true')

  // 1024×700: the list and the detail side by side, both usable, nothing off-screen sideways.
  const listBox = await expectInWindow(inspector.list(), 'the exchange list')
  const detailBox = await expectInWindow(inspector.detail(), 'the exchange detail')
  expect(listBox.x + listBox.width).toBeLessThanOrEqual(detailBox.x)
  expect(listBox.height).toBeGreaterThanOrEqual(300)
  // Opening the JWT's checks scrolled the detail down to them; back at its top the diagnosis is in view.
  await inspector.detail().evaluate((el) => el.closest('.inspector-detail')!.scrollTo(0, 0))
  await expect(diagnosis).toBeInViewport()
  await noHorizontalScroll(page)
  await page.screenshot({ path: 'test-results/screens/inspector-1024x700-01-diagnosis.png' })
  // Hiding the list gives the detail the width: the explanation moves beside the body.
  await page.getByRole('button', { name: 'Hide the list' }).click()
  await expect(inspector.list()).toBeHidden()
  const wide = (await inspector.detail().boundingBox())!
  expect(wide.width).toBeGreaterThan(detailBox.width + 200)
  await page.screenshot({ path: 'test-results/screens/inspector-1024x700-02-list-hidden.png' })
  await page.getByRole('button', { name: 'Show the list' }).click()
  await expect(inspector.list()).toBeVisible()

  // The sequence diagram's arrow reaches the same exchange, the filter still hiding it.
  await shell.open('Consent flows')
  const sequence = new SequencePart(page, page.getByRole('region', { name: /flow [0-9a-f-]{36}$/ }))
  await sequence.open()
  await sequence
    .exchangeArrows()
    .filter({ hasText: /domestic-payment-consents/ })
    .first()
    .click()
  await expect(inspector.detail().getByRole('region', { name: 'Diagnosis' })).toHaveAttribute('data-code', 'OB_ERROR')
  await inspector.detail().getByRole('button', { name: 'Clear the filters' }).click()
  await expect(inspector.list().locator('button.exchange-row[aria-current="true"]')).toContainText('400')

  // Reveal: the token request's client assertion and access token reach the body views of this tab, never
  // curl or HAR.
  await inspector.filterPath().fill('/token')
  const tokenRow = inspector.list().locator('button.exchange-row').first()
  await expect(tokenRow.locator('.path')).toHaveText('/token')
  await tokenRow.click()
  await expect(inspector.detail()).toContainText(/POST .*\/token/)
  await expect(inspector.detail().getByRole('region', { name: 'Diagnosis' })).toHaveAttribute('data-outcome', 'ok')
  await inspector
    .detail()
    .getByText(/^Secrets in this exchange/)
    .click()
  const secrets = inspector.detail().getByRole('table', { name: 'Secrets in this exchange' })
  const revealed: Record<string, string> = {}
  for (const name of ['client_assertion', 'access_token']) {
    const row = secrets.getByRole('row').filter({ hasText: name })
    await row.getByRole('button', { name: /^Reveal/ }).click()
    await expect(row).toContainText('revealed')
    revealed[name] = (await row.locator('code').textContent())!.trim()
    expect(revealed[name]).not.toContain('…')
  }
  await inspector.tab('Request').click()
  await expect(inspector.detail().getByRole('region', { name: 'Request body' })).toContainText(
    revealed.client_assertion!.slice(0, 60),
  )
  await inspector.tab('Response').click()
  await expect(inspector.responseBody()).toContainText(revealed.access_token!.slice(0, 40))
  await inspector.detail().getByRole('button', { name: 'Copy as curl' }).click()
  await expect(inspector.detail().getByLabel(/^curl command/)).toHaveValue(/client_assertion=\S{8}…\S{8}/)
  await expect(inspector.detail().getByLabel(/^curl command/)).not.toHaveValue(
    new RegExp(revealed.client_assertion!.slice(0, 60)),
  )
  await inspector.detail().getByRole('button', { name: 'Export HAR' }).click()
  const har = JSON.parse(await inspector.detail().getByLabel(/^HAR/).inputValue()) as {
    log: { entries: Array<{ response: { content: { text: string } } }> }
  }
  expect(har.log.entries[0]!.response.content.text).not.toContain(revealed.access_token)
  await page.screenshot({ path: 'test-results/screens/inspector-1024x700-03-revealed.png' })

  // The journey's exports: HAR and Postman of what the filters show (this flow), masked (the revealed values in neither).
  await inspector.filterPath().fill('')
  await expect(
    inspector.list().locator('button.exchange-row').filter({ hasText: 'domestic-payment-consents' }),
  ).toHaveCount(1)
  const everything = Number(await inspector.list().getAttribute('data-count'))
  const flowId = (await page
    .getByRole('search', { name: 'Filter exchanges' })
    .getByLabel('Flow')
    .locator('option')
    .nth(1)
    .getAttribute('value'))!
  await page.getByRole('search', { name: 'Filter exchanges' }).getByLabel('Flow').selectOption(flowId)
  await expect.poll(async () => Number(await inspector.list().getAttribute('data-count'))).toBeLessThan(everything)
  const shown = Number(await inspector.list().getAttribute('data-count'))
  expect(shown).toBeGreaterThanOrEqual(2)
  const journeyHar = await download(page, () =>
    page.getByRole('button', { name: 'Export HAR of what is shown' }).click(),
  )
  expect(journeyHar.name).toBe(`exchanges-flow-${flowId.slice(0, 8)}.har`)
  const entries = (JSON.parse(journeyHar.text) as { log: { entries: Array<{ request: { url: string } }> } }).log.entries
  expect(entries).toHaveLength(shown)
  expect(entries.some((e) => /domestic-payment-consents$/.test(e.request.url))).toBe(true)
  expect(journeyHar.text).not.toContain(revealed.access_token)
  const postman = await download(page, () => page.getByRole('button', { name: 'Export Postman collection' }).click())
  expect(postman.name).toBe(`exchanges-flow-${flowId.slice(0, 8)}.postman_collection.json`)
  const collection = JSON.parse(postman.text) as { info: { schema: string }; item: unknown[] }
  expect(collection.info.schema).toMatch(/v2\.1\.0/)
  // Its signature part: the JWT's header is shared with the (public) x-jws-signature of the same key.
  expect(JSON.stringify(collection.item)).not.toContain(revealed.client_assertion!.slice(-40))
  await saveScreen(page, 'inspector-1024x700-04-journey')

  // On a wide window the explanation stands beside the body instead of above it.
  await page.setViewportSize({ width: 1600, height: 900 })
  await inspector.list().locator('button.exchange-row').filter({ hasText: 'domestic-payment-consents' }).click()
  const body = (await inspector.detail().locator('.exchange-main').boundingBox())!
  const explain = (await inspector
    .detail()
    .getByRole('complementary', { name: 'What this exchange comes to' })
    .boundingBox())!
  expect(explain.x).toBeGreaterThanOrEqual(body.x + body.width)
  expect(Math.abs(explain.y - body.y)).toBeLessThan(40)
  await page.screenshot({ path: 'test-results/screens/inspector-1600x900-05-beside.png' })
})
