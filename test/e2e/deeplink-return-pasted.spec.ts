import { expect, saveScreen, test } from './fixtures.ts'
import { ConsoleApp } from './pages/console-app.ts'
import { FlowsPage } from './pages/flows-page.ts'
import { GuidePage, setUpLocalClient } from './pages/guide-page.ts'
import { localPsu } from './pages/local-psus.ts'
import { PsuPages } from './pages/psu-pages.ts'

test('a deeplink return pasted by hand completes the AIS flow (the web host has no custom scheme handler)', async ({
  app: page,
  context,
}) => {
  const shell = new ConsoleApp(page)
  const guide = new GuidePage(page)
  await setUpLocalClient(guide, /paste the URL/)

  await shell.open('Consent flows')
  const flows = new FlowsPage(page)
  await flows.openForm('ais')
  await flows.chooseCapture('ais', /^Deeplink return/)
  await flows.startAndRun('ais')

  const waiting = flows.current().awaiting()
  await expect(waiting).toBeVisible()
  await expect(waiting).toContainText('ob-console://')

  // The PSU approves in another tab; the bank's last answer redirects to the console's scheme.
  const [tab] = await Promise.all([
    context.waitForEvent('page'),
    waiting.getByRole('link', { name: "Open the bank's authorisation page" }).click(),
  ])
  const returned = new Promise<string>((resolve) => {
    tab.on('response', (r) => {
      const location = r.headers()['location']
      if (location?.startsWith('ob-console:')) resolve(location)
    })
  })
  const grace = localPsu('grace')
  const psu = new PsuPages(tab)
  await psu.logIn(grace.username, grace.password)
  await psu.approveAccounts()
  const url = await returned
  await tab.close()

  // A wrong paste is refused with what, cause and fix.
  await waiting.getByLabel('Returned URL').fill('ob-console://oauth/callback#state=not-this-one&code=x')
  await waiting.getByRole('button', { name: 'Hand the URL to the flow' }).click()
  await expect(waiting.getByRole('alert')).toContainText('another authorisation request')
  await saveScreen(page, '06-deeplink-wrong-paste')

  await waiting.getByLabel('Returned URL').fill(url)
  await waiting.getByRole('button', { name: 'Hand the URL to the flow' }).click()
  await flows.current().expectAllDone()
  await expect(flows.current().step('PSU authorisation')).toContainText('code received (pasted)')
  await saveScreen(page, '07-deeplink-flow-done')
})
