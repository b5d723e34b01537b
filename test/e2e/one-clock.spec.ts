import { expect, saveScreen, test } from './fixtures.ts'
import { ConsoleApp } from './pages/console-app.ts'
import { FlowsPage } from './pages/flows-page.ts'
import { GuidePage, setUpLocalClient } from './pages/guide-page.ts'

test("one clock: after the sandbox's clock passes the consent's expiry, the flow header, the clock panel and the consent card all say expired; Revoke is gone and a new consent is offered", async ({
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
  await flows.form('ais').getByLabel('Consent expires in days (optional)').fill('1')
  await flows.startAndRun('ais')
  await expect(flows.current().step('Transactions')).toHaveAttribute('data-status', 'done', { timeout: 90_000 })
  const region = flows.current().root
  const header = region.getByLabel('Consent expiry')
  await expect(header).toHaveText(/^Consent expires .* \(in 23 h 5\d min\)\.$/)

  // The clock panel and the header count from the same time.
  const clock = region.getByRole('region', { name: 'Sandbox clock' })
  const effect = clock.getByRole('list', { name: 'Effect of the sandbox clock' })
  await expect(effect).toContainText(/the consent expires .* \(in 23 h 5\d min\)/)

  await clock
    .getByRole('group', { name: 'Move the sandbox clock forward' })
    .getByRole('button', { name: '+7 days' })
    .click()
  await expect(clock.getByLabel('Sandbox time')).toContainText('(7 d ahead of wall time)')
  await expect(header).toHaveText(/^Consent expired .* \(6 d( \d+ h)? ago\)\.$/)
  await expect(effect).toContainText(/the consent expired .* \(6 d( \d+ h)? ago\)/)
  await expect(region).not.toContainText(/in 23 h/)
  await saveScreen(page, 'one-clock-flow-expired')

  // The consents view, by the same clock.
  await shell.open('Consents')
  const consent = page.getByRole('article', { name: /^Consent / })
  await expect(consent).toHaveCount(1)
  await expect(consent.getByLabel('Expiry')).toHaveText(/^Expired .* \(6 d( \d+ h)? ago\)$/)
  await expect(consent).toContainText('Expired (the bank last said AUTH)')
  await expect(consent).not.toContainText(/in 23 h/)
  await expect(consent.getByRole('button', { name: /^Revoke/ })).toHaveCount(0)
  const section = await page.getByRole('region', { name: /^Consents of client / }).getAttribute('aria-label')
  const clientId = section!.replace(/^Consents of client /, '')
  await saveScreen(page, 'one-clock-consent-expired')

  // The bank agrees when asked: the consent is expired there too.
  await consent.getByRole('button', { name: /^Read from the bank/ }).click()
  await expect(consent).toContainText('The bank says EXPD')
  await expect(consent).toContainText('Expired (EXPD)')

  // A new consent: the flow form for the same client and environment.
  await consent.getByRole('button', { name: `Start a new consent for client ${clientId}` }).click()
  const form = flows.form('ais')
  await expect(form).toBeVisible()
  await expect(form.getByLabel('Client')).toHaveValue(clientId)
  await expect(form.getByLabel('Environment')).toHaveValue('local-sandbox')
})
