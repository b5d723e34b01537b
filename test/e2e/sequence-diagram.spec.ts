import { readFileSync } from 'node:fs'
import { expect, saveScreen, test } from './fixtures.ts'
import { ConsoleApp } from './pages/console-app.ts'
import { FlowsPage } from './pages/flows-page.ts'
import { GuidePage, setUpLocalClient } from './pages/guide-page.ts'
import { InspectorPage } from './pages/inspector-page.ts'
import { SequencePart } from './pages/sequence-part.ts'

test("the sequence diagram draws an AIS run live, marks failed calls, opens an arrow's exchange, and exports as SVG", async ({
  app: page,
  consoleServer,
}) => {
  const shell = new ConsoleApp(page)
  const guide = new GuidePage(page)
  await setUpLocalClient(guide)

  await shell.open('Consent flows')
  const flows = new FlowsPage(page)
  await flows.openForm('ais')
  await flows.chooseCapture('ais', /^Headless/)
  await flows.startAndRun('ais')
  const region = page.getByRole('region', { name: /flow [0-9a-f-]{36}$/ })
  const diagram = new SequencePart(page, region)
  // Opened while the flow runs: it grows as the exchanges are recorded.
  await diagram.open()
  const arrows = diagram.exchangeArrows()
  await expect(arrows.first()).toBeVisible({ timeout: 30_000 })
  await diagram.showSteps()
  await flows.current().expectAllDone()
  await diagram.open()
  const shown = await arrows.count()
  expect(shown).toBeGreaterThan(10)
  await expect(diagram.svg()).toHaveAttribute('data-arrows', String(shown + 2))
  // Every lane is drawn, and the PSU's part comes from the authorisation steps.
  for (const lane of ['TPP (console)', 'PSU / bank app', 'Authorisation server', 'Resource server', 'Directory'])
    await expect(diagram.svg()).toContainText(lane)
  // It fits the card at 1440 px: no lane (the Directory, rightmost) clipped, no sideways scrolling.
  const fit = await diagram.svg().evaluate((svg) => {
    const box = svg.parentElement!
    return { scrollWidth: box.scrollWidth, clientWidth: box.clientWidth, svg: svg.getBoundingClientRect().width }
  })
  expect(fit.scrollWidth).toBeLessThanOrEqual(fit.clientWidth)
  expect(fit.svg).toBeLessThanOrEqual(fit.clientWidth)
  await expect(diagram.arrow(/authorisation page/)).toHaveCount(1)
  await expect(diagram.arrow(/redirect back: code received/)).toHaveCount(1)
  await expect(diagram.arrow(/POST \/token → 200/).first()).toBeVisible()
  await expect(diagram.arrow(/GET \/open-banking\/v4\.0\/aisp\/accounts → 200/).first()).toBeVisible()
  await expect(diagram.failedArrows()).toHaveCount(0)

  // The sandbox's clock moves past the access token's life: the next data call fails and is marked.
  const clock = await page.request.post(`${consoleServer.sandbox.directoryUrl}/admin/clock`, {
    data: { advance: 'P1D' },
  })
  expect(clock.ok(), await clock.text()).toBe(true)
  await diagram.showSteps()
  await flows.current().step('Accounts').getByRole('button', { name: 'Re-run step Accounts' }).click()
  await expect(flows.current().step('Accounts')).toHaveAttribute('data-status', 'failed', { timeout: 30_000 })
  await diagram.open()
  const failed = diagram.failedArrows()
  await expect(failed).toHaveCount(1)
  await expect(failed).toContainText(/GET \/open-banking\/v4\.0\/aisp\/accounts → 401/)
  await saveScreen(page, 'sequence-diagram-ais')

  // Export: a standalone SVG file with the arrows and no CSS variables.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    diagram.root().getByRole('button', { name: 'Export SVG' }).click(),
  ])
  expect(download.suggestedFilename()).toMatch(/^sequence-ais-[0-9a-f-]{36}\.svg$/)
  const svg = readFileSync((await download.path())!, 'utf8')
  expect(svg).toContain('<svg xmlns="http://www.w3.org/2000/svg"')
  expect(svg).toContain('Authorisation server')
  expect(svg).toContain('/aisp/accounts → 401')
  expect(svg).not.toContain('var(--')

  // The failed arrow opens its exchange in the inspector.
  await failed.click()
  const inspector = new InspectorPage(page)
  await expect(inspector.detail()).toBeVisible()
  await expect(inspector.detail()).toContainText('401')
  await expect(inspector.detail()).toContainText('/aisp/accounts')
})
