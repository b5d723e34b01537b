import { expect, saveScreen, test } from './fixtures.ts'
import { ConsoleApp } from './pages/console-app.ts'
import { FlowsPage } from './pages/flows-page.ts'
import { GuidePage, setUpLocalClient } from './pages/guide-page.ts'

test('the local sandbox clock moves forward from the flow card; consent expiry and windows follow it; the budget reads in words', async ({
  app: page,
}) => {
  const shell = new ConsoleApp(page)
  const guide = new GuidePage(page)
  await setUpLocalClient(guide)

  await shell.open('Consent flows')
  const flows = new FlowsPage(page)
  await flows.openForm('ais')
  await flows.chooseCapture('ais', /^Headless/)
  const form = flows.form('ais')
  await form.getByLabel('Consent expires in days (optional)').fill('3')
  await form.getByRole('checkbox', { name: /PSU present/ }).uncheck()
  await flows.startAndRun('ais')
  // With the PSU absent, the resources outside the four exempt endpoints are skipped.
  await expect(flows.current().step('Other resources')).toHaveAttribute('data-status', 'skipped', { timeout: 90_000 })
  await expect(flows.current().step('Transactions')).toHaveAttribute('data-status', 'done')
  const region = flows.current().root

  // Consent expiry on the flow card.
  await expect(region.getByLabel('Consent expiry')).toHaveText(/^Consent expires .* \(in 2 d 23 h\)\.$/)

  // The budget names consent, account and endpoint in words.
  const budget = region.getByRole('table', { name: 'PSU-absent calls left' })
  await expect(
    budget.getByRole('row', {
      name: /^Consent .+ · All accounts of the consent · Account list: 3 of 4 left, available now/,
    }),
  ).toHaveCount(1)
  await expect(
    budget.getByRole('row', { name: /^Consent .+ · Current account ••\d{4}.* · Balances: 3 of 4 left, available now/ }),
  ).toHaveCount(1)

  // The sandbox clock: its time, and the effect of moving it.
  const clock = region.getByRole('region', { name: 'Sandbox clock' })
  await expect(clock.getByLabel('Sandbox time')).toContainText('wall time')
  const effect = clock.getByRole('list', { name: 'Effect of the sandbox clock' })
  await expect(effect).toContainText(/the consent expires .* \(in 2 d 23 h\)/)
  const historyBefore = await effect.getByText(/^90-day history without SCA from/).textContent()

  const moves = clock.getByRole('group', { name: 'Move the sandbox clock forward' })
  await moves.getByRole('button', { name: '+1 day' }).click()
  await expect(clock.getByLabel('Sandbox time')).toContainText('(1 d ahead of wall time)')
  await expect(effect).toContainText(/the consent expires .* \(in 1 d 23 h\)/)
  await expect(effect.getByText(/^90-day history without SCA from/)).not.toHaveText(historyBefore!)

  await moves.getByRole('button', { name: '+6 hours' }).click()
  await expect(clock.getByLabel('Sandbox time')).toContainText('(1 d 6 h ahead of wall time)')
  await moves.getByRole('button', { name: '+7 days' }).click()
  await expect(clock.getByLabel('Sandbox time')).toContainText('(8 d 6 h ahead of wall time)')
  await expect(effect).toContainText(/the consent expired .* ago/)
  await saveScreen(page, 'sandbox-clock-moved')

  // The sandbox agrees: the expired consent's data call now fails.
  await region.getByRole('tab', { name: 'Steps' }).click()
  await flows.current().step('Balances').getByRole('button', { name: 'Re-run step Balances' }).click()
  await expect(flows.current().step('Balances')).toHaveAttribute('data-status', 'failed', { timeout: 30_000 })
})
