/**
 * The loopback callback page in Chromium: once a flow has the bank's answer, the page replaces its address
 * (`history.replaceState`), so the code and the ID token stay neither in the address bar nor in the tab's
 * history; an answer no flow took keeps its address for the user to paste. Its script runs under the page's
 * CSP (no violation reported).
 */
import { expect, test, type Page } from '@playwright/test'
import { startLoopbackListener, type LoopbackListener } from '../../src-main/flows/capture/loopback-listener.ts'

let listener: LoopbackListener

test.beforeEach(async () => {
  listener = await startLoopbackListener(0)
})

test.afterEach(async () => {
  await listener.stop()
})

/** Counts the CSP violations the page reports. */
async function watchCsp(page: Page): Promise<() => Promise<number>> {
  await page.addInitScript(() => {
    const w = window as unknown as { cspViolations: number }
    w.cspViolations = 0
    document.addEventListener('securitypolicyviolation', () => w.cspViolations++)
  })
  return () => page.evaluate(() => (window as unknown as { cspViolations: number }).cspViolations)
}

test('the callback page hands the code over, then its address holds neither the code nor the ID token', async ({
  page,
}) => {
  const violations = await watchCsp(page)
  const waiting = listener.waitFor('state-1', 20_000)
  await page.goto('about:blank')
  const returned = `${listener.redirectUri}#code=code-123&id_token=aaa.bbb.ccc&state=state-1`
  await page.goto(returned)
  await expect(page.getByRole('status')).toHaveText(/OB Console has the authorisation code/)
  await expect(waiting).resolves.toMatchObject({ code: 'code-123', idToken: 'aaa.bbb.ccc', state: 'state-1' })
  await expect.poll(() => page.url()).toBe(listener.redirectUri)
  expect(await page.evaluate(() => location.hash)).toBe('')
  // The history entry was replaced, not added: Back leaves the page instead of returning to the fragment.
  await page.goBack()
  await expect.poll(() => page.url()).toBe('about:blank')
  await page.goForward()
  await expect.poll(() => page.url()).toMatch(/\/callback/)
  expect(page.url()).not.toContain('code-123')
  expect(await violations()).toBe(0)
})

test('an answer no flow waits for keeps its address, to be pasted into the console', async ({ page }) => {
  const violations = await watchCsp(page)
  const returned = `${listener.redirectUri}#code=code-456&state=nobody-waits`
  await page.goto(returned)
  await expect(page.getByRole('status')).toHaveText(/no flow waits for its state now/)
  expect(page.url()).toBe(returned)
  expect(await violations()).toBe(0)
})
