import { expect, saveScreen, test } from './fixtures.ts'
import { openLocalFlows } from './pages/flows-page.ts'
import { InspectorPage } from './pages/inspector-page.ts'

test("the inspector hides the console's own requests to the local sandbox (its conformance report polls) until asked", async ({
  app: page,
}) => {
  const { shell, flows } = await openLocalFlows(page)
  await flows.startHeadlessAis()
  await expect(flows.current().step('Transactions')).toHaveAttribute('data-status', 'done', { timeout: 90_000 })
  // The flow's conformance report read the sandbox's admin endpoint as the steps finished.
  const report = flows.current().root.getByRole('region', { name: 'Conformance report' })
  await expect(report.getByLabel('Conformance summary')).toContainText('Every rule the sandbox checked passed', {
    timeout: 30_000,
  })
  await report.getByRole('button', { name: 'Refresh' }).click()
  await expect(report.getByLabel('Conformance summary')).toContainText('Every rule the sandbox checked passed')

  await shell.open('Inspector')
  const inspector = new InspectorPage(page)
  const toggle = page.getByRole('checkbox', { name: /^Show the console's own requests/ })
  await expect(toggle).not.toBeChecked()
  await expect(inspector.rows().first()).toBeVisible()
  const hiddenLabel = await page.getByText(/^Show the console's own requests \(\d+ hidden\)$/).textContent()
  const hidden = Number(/\((\d+) hidden\)/.exec(hiddenLabel ?? '')![1])
  expect(hidden).toBeGreaterThanOrEqual(2)
  const shownText = await page.getByText(/^\d+ of \d+ shown$/).textContent()
  const shown = Number(/of (\d+) shown/.exec(shownText ?? '')![1])
  console.log(`inspector: ${shown} rows shown, ${hidden} of the console's own hidden (${hidden + shown} in all)`)

  // Only the user's flow in the list; the console's own do not match even a path filter while hidden.
  await expect(inspector.list()).not.toContainText('/admin/')
  await inspector.filterPath().fill('/admin/')
  await expect(page.getByText(/^0 of 0 shown$/)).toBeVisible()
  await expect(inspector.rows()).toHaveCount(0)
  await expect(page.getByText(`Show the console's own requests (${hidden} hidden)`)).toBeVisible()

  // Switched on: they show, and the path filter still applies.
  await toggle.check()
  // The list is virtualised (only the rows in view are drawn): the count is its "N of N shown" line, and every
  // row drawn is one of the console's own.
  await expect(page.getByText(`${hidden} of ${hidden} shown`)).toBeVisible()
  await expect(inspector.rows().first()).toContainText('/admin/conformance')
  const drawn = await inspector.rows().allTextContents()
  expect(drawn.length).toBeGreaterThan(0)
  expect(drawn.length).toBeLessThanOrEqual(hidden)
  expect(drawn.filter((row) => !row.includes('/admin/'))).toEqual([])
  // The flow filter keeps working: the flow made none of them.
  await page.getByRole('search', { name: 'Filter exchanges' }).getByLabel('Flow').selectOption({ index: 1 })
  await expect(inspector.rows()).toHaveCount(0)
  await inspector.filterPath().fill('')
  await expect(inspector.rows().first()).toBeVisible()
  await expect(inspector.list()).not.toContainText('/admin/')

  // Off again: hidden, counted.
  await page.getByRole('search', { name: 'Filter exchanges' }).getByLabel('Flow').selectOption({ index: 0 })
  await toggle.uncheck()
  await expect(page.getByText(`Show the console's own requests (${hidden} hidden)`)).toBeVisible()
  await expect(page.getByText(`${shown} of ${shown} shown`)).toBeVisible()
  await expect(inspector.list()).not.toContainText('/admin/')
  await saveScreen(page, 'inspector-console-requests-hidden')
})
