import type { BrowserContext, Locator } from '@playwright/test'
import { expect, saveScreen, test } from './fixtures.ts'
import { ConsoleApp } from './pages/console-app.ts'
import { FlowsPage } from './pages/flows-page.ts'
import { GuidePage, setUpLocalClient } from './pages/guide-page.ts'
import { localPsu } from './pages/local-psus.ts'
import { PsuPages } from './pages/psu-pages.ts'

/** The PSU at the bank in a new tab: logs in, approves or rejects; answers the redirect the bank sent back (never followed). */
async function psuAtTheBank(
  context: BrowserContext,
  waiting: Locator,
  decision: 'approve' | 'reject',
): Promise<string> {
  const [tab] = await Promise.all([
    context.waitForEvent('page'),
    waiting.getByRole('link', { name: "Open the bank's authorisation page" }).click(),
  ])
  const redirectUri = new URL(
    (await waiting.getByRole('link', { name: "Open the bank's authorisation page" }).getAttribute('href'))!,
  ).searchParams.get('redirect_uri')!
  const returned = new Promise<string>((resolve) => {
    tab.on('response', (r) => {
      const location = r.headers()['location']
      if (location?.startsWith(redirectUri)) resolve(location)
    })
  })
  // The redirect URI is not served here: the bank's answer is read from the redirect, as a user copies it.
  await tab.route(`${redirectUri}**`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/plain', body: 'returned' }),
  )
  const grace = localPsu('grace')
  const psu = new PsuPages(tab)
  await psu.logIn(grace.username, grace.password)
  if (decision === 'approve') await psu.approveAccounts()
  else {
    await expect(tab.getByRole('heading', { name: /^Share account information with/ })).toBeVisible()
    await tab.getByRole('button', { name: 'Reject' }).click()
  }
  const url = await returned
  await tab.close()
  return url
}

async function paste(waiting: Locator, url: string): Promise<Locator> {
  await waiting.getByLabel('Returned URL').fill(url)
  await waiting.getByRole('button', { name: 'Hand the URL to the flow' }).click()
  return waiting.getByRole('alert')
}

test('the pasted return: each problem has its own explanation and way on; a return for another flow is handed to it; a refusal leads to a new consent', async ({
  app: page,
  context,
}) => {
  test.setTimeout(180_000)
  const shell = new ConsoleApp(page)
  const guide = new GuidePage(page)
  await setUpLocalClient(guide, /paste the URL/)

  await shell.open('Consent flows')
  const flows = new FlowsPage(page)
  await flows.openForm('ais')
  // This client's PSU logs in (its sandbox_profile is not headless): the form offers no headless run for it,
  // says why, and starts with a capture that can work.
  const captureField = flows.form('ais').getByLabel('PSU return (capture)')
  const headless = captureField.locator('option', { hasText: /^Headless/ })
  await expect(headless).toBeDisabled()
  await expect(headless).toHaveText(
    /not for this client \(sandbox_profile "permissive" sends the PSU to the login page\)/,
  )
  await expect(captureField).toHaveValue('loopback')
  await expect(flows.form('ais').getByText(/^No headless run for this client/)).toContainText(
    'a client registered with "permissive-headless" can',
  )
  await saveScreen(page, 'headless-not-offered-login-client')
  await flows.chooseCapture('ais', /^Open the URL yourself/)
  await flows.startAndRun('ais')
  const first = flows.current()
  const firstRegion = first.root
  const firstName = await firstRegion.getAttribute('aria-label')
  const waiting = first.awaiting()
  await expect(waiting).toBeVisible({ timeout: 30_000 })
  // In the browser the paste field is offered before the PSU is sent to the bank.
  const fieldBox = (await waiting.getByLabel('Returned URL').boundingBox())!
  const linkBox = (await waiting.getByRole('link', { name: "Open the bank's authorisation page" }).boundingBox())!
  expect(fieldBox.y).toBeLessThan(linkBox.y)

  const returned = await psuAtTheBank(context, waiting, 'approve')
  const [base, fragment] = returned.split('#') as [string, string]

  // Not a URL: paste again (the field is cleared and focused).
  await expect(await paste(waiting, 'code=abc')).toHaveAttribute('data-code', 'AUTH_RETURN_NOT_A_URL')
  await waiting.getByRole('button', { name: 'Paste again' }).click()
  await expect(waiting.getByLabel('Returned URL')).toHaveValue('')
  await expect(waiting.getByLabel('Returned URL')).toBeFocused()
  await expect(waiting.getByRole('alert')).toHaveCount(0)

  // The fragment lost on the way: no code.
  const noCode = await paste(waiting, base)
  await expect(noCode).toHaveAttribute('data-code', 'AUTH_RETURN_NO_CODE')
  await expect(noCode).toContainText('fragment')
  await expect(waiting.getByRole('button', { name: 'Paste again' })).toBeVisible()

  // The code moved to the query, where the hybrid flow's fragment was asked for.
  const inQuery = await paste(waiting, `${base}?${fragment}`)
  await expect(inQuery).toHaveAttribute('data-code', 'AUTH_RETURN_CODE_IN_QUERY')
  await expect(inQuery).toContainText('fragment')

  // Another request's state.
  const wrongState = await paste(waiting, `${base}#${fragment.replace(/state=[^&]+/, 'state=not-this-one')}`)
  await expect(wrongState).toHaveAttribute('data-code', 'AUTH_RETURN_STATE_MISMATCH')
  await expect(wrongState).toContainText('not-this-one')
  await saveScreen(page, 'return-wrong-state')

  // A second flow waits too; the first flow's return pasted into it is handed over with one click.
  await flows.openForm('ais')
  await flows.chooseCapture('ais', /^Open the URL yourself/)
  await flows.startAndRun('ais')
  const second = flows.current()
  await expect(second.root).not.toHaveAttribute('aria-label', firstName!)
  const secondWaiting = second.awaiting()
  await expect(secondWaiting).toBeVisible({ timeout: 30_000 })
  const other = await paste(secondWaiting, returned)
  await expect(other).toHaveAttribute('data-code', 'AUTH_RETURN_OTHER_FLOW')
  const secondName = await second.root.getAttribute('aria-label')
  await secondWaiting.getByRole('button', { name: /^Hand it to flow / }).click()
  await expect(flows.current().root).toHaveAttribute('aria-label', firstName!)
  await flows.current().expectAllDone()
  await expect(flows.current().step('PSU authorisation')).toContainText('code received (pasted)')

  // The second flow: the PSU rejects at the bank; pasted, the capture step fails with the bank's error and offers a new consent.
  await page.getByRole('list', { name: 'Flows' }).getByRole('button').nth(0).click()
  await expect(flows.current().root).toHaveAttribute('aria-label', secondName!)
  const rejected = await psuAtTheBank(context, flows.current().awaiting(), 'reject')
  expect(rejected).toContain('error=access_denied')
  await flows.current().awaiting().getByLabel('Returned URL').fill(rejected)
  await flows.current().awaiting().getByRole('button', { name: 'Hand the URL to the flow' }).click()
  const capture = flows.current().step('PSU authorisation')
  await expect(capture).toHaveAttribute('data-status', 'failed', { timeout: 30_000 })
  await expect(capture.getByRole('alert')).toHaveAttribute('data-code', 'AUTH_RETURN_ERROR')
  await expect(capture.getByRole('alert')).toContainText('access_denied')
  await expect(capture.getByRole('button', { name: 'Re-run step PSU authorisation' })).toBeVisible()
  await saveScreen(page, 'return-refused')
  await capture.getByRole('button', { name: 'Start a new consent' }).click()
  // A new flow, a new consent, waiting for the PSU again.
  await expect(flows.current().root).not.toHaveAttribute('aria-label', secondName!)
  await expect(flows.current().awaiting()).toBeVisible({ timeout: 30_000 })
  await expect(page.getByRole('list', { name: 'Flows' }).getByRole('listitem')).toHaveCount(3)

  // The third flow: the PSU approves, and the return comes back with an ID token whose signature was changed on
  // the way. The ID token checks fail, say not to use the code, and offer a new consent.
  const third = flows.current()
  const thirdName = await third.root.getAttribute('aria-label')
  const approved = await psuAtTheBank(context, third.awaiting(), 'approve')
  const tampered = approved.replace(/(id_token=[^.&]+\.[^.&]+\.)([^&]{12})/, (_all, head: string, sig: string) => {
    const flipped = sig[5] === 'A' ? 'B' : 'A'
    return `${head}${sig.slice(0, 5)}${flipped}${sig.slice(6)}`
  })
  expect(tampered).not.toBe(approved)
  await third.awaiting().getByLabel('Returned URL').fill(tampered)
  await third.awaiting().getByRole('button', { name: 'Hand the URL to the flow' }).click()
  const idToken = third.step('ID token checks')
  await expect(idToken).toHaveAttribute('data-status', 'failed', { timeout: 30_000 })
  await expect(idToken.getByRole('alert')).toContainText('signature')
  await expect(idToken.getByRole('alert')).toContainText("Do not use this return's authorisation code")
  await expect(third.step('Code exchange')).not.toHaveAttribute('data-status', 'done')
  await saveScreen(page, 'id-token-failed-way-on')
  await idToken.getByRole('button', { name: 'Start a new consent' }).click()
  await expect(flows.current().root).not.toHaveAttribute('aria-label', thirdName!)
  await expect(flows.current().awaiting()).toBeVisible({ timeout: 30_000 })
})
