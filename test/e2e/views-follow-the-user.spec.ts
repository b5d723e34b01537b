import type { Locator, Page } from '@playwright/test'
import { expect, saveScreen, test } from './fixtures.ts'
import { openLocalFlows } from './pages/flows-page.ts'
import { RegistrationPage } from './pages/registration-page.ts'

/** How far the page is scrolled: the window, and the main area (in case it is the one that scrolls). */
const scrolled = (page: Page) => page.evaluate(() => window.scrollY + (document.getElementById('main')?.scrollTop ?? 0))

async function scrollDown(page: Page): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
  await expect.poll(() => scrolled(page)).toBeGreaterThan(300)
}

/** The element that has the focus is `heading`, and it is in the viewport. */
async function expectFocusedInView(heading: Locator): Promise<void> {
  await expect(heading).toBeFocused()
  await expect(heading).toBeInViewport()
  expect(await heading.evaluate((el) => document.activeElement === el)).toBe(true)
}

test('each view opens at its top: from the navigation, the command palette, and links from one view to another', async ({
  app: page,
}) => {
  const { shell, flows } = await openLocalFlows(page)
  await flows.startHeadlessAis()
  await expect(flows.current().step('Transactions')).toHaveAttribute('data-status', 'done', { timeout: 90_000 })

  // The navigation.
  await scrollDown(page)
  await shell.open('Environments & identities')
  await expect(page.getByRole('main', { name: 'Environments & identities' })).toBeFocused()
  expect(await scrolled(page)).toBe(0)

  // A link from the flow to its account data, then back through the navigation.
  await shell.open('Consent flows')
  expect(await scrolled(page)).toBe(0)
  await page.getByRole('button', { name: 'Show account data' }).scrollIntoViewIfNeeded()
  await scrollDown(page)
  await page.getByRole('button', { name: 'Show account data' }).click()
  await expect(shell.nav('Account data')).toHaveAttribute('aria-current', 'page')
  expect(await scrolled(page)).toBe(0)

  // The command palette, from a long view scrolled down.
  await shell.open('Consent flows')
  await scrollDown(page)
  await page.keyboard.press('Control+k')
  const palette = page.getByRole('dialog', { name: 'Command palette' })
  await palette.getByRole('combobox', { name: 'Command' }).fill('go to guide')
  await page.keyboard.press('Enter')
  await expect(shell.nav('Guide')).toHaveAttribute('aria-current', 'page')
  expect(await scrolled(page)).toBe(0)

  // Returning to the view it is on (its navigation button again) starts at its top too.
  await shell.open('Consent flows')
  await scrollDown(page)
  await shell.open('Consent flows')
  await expect.poll(() => scrolled(page)).toBe(0)
})

test('the result of the user’s action is scrolled to and focused: a step run, a flow run, a registration sent', async ({
  app: page,
}) => {
  const { shell, flows } = await openLocalFlows(page)
  await flows.startHeadlessAis()
  const transactions = flows.current().step('Transactions')
  const last = flows.current().step('Other resources')
  await expect(last).toHaveAttribute('data-status', 'done', { timeout: 90_000 })
  // A whole run: its last step's heading.
  await expectFocusedInView(last.getByRole('heading', { name: 'Other resources', exact: true }))
  // The flows list names the flow by what it did.
  await expect(page.getByRole('list', { name: 'Flows' }).getByRole('button').first()).toContainText(
    /^AIS · \d+ accounts? · [\d,]+ transactions? Done/,
  )
  console.log(`flow row: ${await page.getByRole('list', { name: 'Flows' }).getByRole('button').first().textContent()}`)

  // Opening the view again does not move the focus to a result (only the user's own action does).
  await shell.open('Environments & identities')
  await shell.open('Consent flows')
  await expect(page.getByRole('main', { name: 'Consent flows' })).toBeFocused()

  // One step re-run from the top of the page: its card comes into view, its heading focused.
  const accounts = flows.current().step('Accounts')
  await accounts.getByRole('button', { name: 'Re-run step Accounts' }).click()
  await expect(accounts).toHaveAttribute('data-status', 'done', { timeout: 30_000 })
  await expectFocusedInView(accounts.getByRole('heading', { name: 'Accounts', exact: true }))
  await page.evaluate(() => window.scrollTo(0, 0))
  await transactions.getByRole('button', { name: 'Re-run step Transactions' }).click()
  await expect(transactions).toHaveAttribute('data-status', 'done', { timeout: 30_000 })
  await expectFocusedInView(transactions.getByRole('heading', { name: 'Transactions', exact: true }))
  await saveScreen(page, 'follow-step-rerun-focused')

  // A registration sent from the builder: the result panel's heading.
  await shell.open('Registration')
  const registration = new RegistrationPage(page)
  await registration.expectAllPass()
  await registration.send().click()
  const result = page.getByRole('region', { name: 'Registration result' })
  await expectFocusedInView(result.getByRole('heading', { name: /^Registered: client / }))
  await saveScreen(page, 'follow-registration-result-focused')
})
