import { expect, saveScreen, test } from './fixtures.ts'
import { ConsoleApp } from './pages/console-app.ts'
import { FlowsPage } from './pages/flows-page.ts'
import { GuidePage, setUpLocalClient } from './pages/guide-page.ts'

test("the payment form checks the v4.0 schema and the bank's rules as you type; a payment the bank rejects lists every error with its path", async ({
  app: page,
}) => {
  const shell = new ConsoleApp(page)
  await setUpLocalClient(new GuidePage(page))
  await shell.open('Consent flows')
  const flows = new FlowsPage(page)
  await flows.openForm('pis')
  const form = flows.form('pis')
  const start = form.getByRole('button', { name: 'Start payment flow and run' })
  await expect(start).toBeEnabled()

  // 10.999: the schema allows five decimals, the bank's GBP amounts two.
  const amount = form.getByLabel('Amount', { exact: true })
  await amount.fill('10.999')
  await expect(amount).toHaveAttribute('aria-invalid', 'true')
  await expect(amount).toHaveAccessibleDescription(
    /has 3 decimal places; GBP amounts have at most 2 \(pence\)\. Data\.Initiation\.InstructedAmount\.Amount/,
  )
  await expect(start).toBeDisabled()
  await amount.fill('10.5.')
  await expect(amount).toHaveAccessibleDescription(/is not an amount: 1 to 13 digits/)

  // A 4-digit account number for UK.OBIE.SortCodeAccountNumber (14 digits).
  const account = form.getByLabel('Creditor account')
  await account.fill('1234')
  await expect(account).toHaveAccessibleDescription(
    /A sort code and account number is 14 digits .* "1234" has 4 digits\. Data\.Initiation\.CreditorAccount\.Identification/,
  )
  await expect(form.getByRole('list', { name: 'Problems' }).getByRole('listitem')).toHaveCount(2)

  // References and names against the schema's lengths, counted as you type.
  const reference = form.getByLabel('Reference')
  await reference.fill('R'.repeat(36))
  await expect(reference).toHaveAccessibleDescription(/At most 35 characters \(36 now\)/)
  await reference.fill('INVOICE-42')
  await expect(reference).toHaveAccessibleDescription(/^10\/35/)
  await saveScreen(page, '30-payment-form-problems')

  // Corrected, the form sends.
  await amount.fill('10.99')
  await account.fill('08080021325698')
  await expect(form.getByRole('list', { name: 'Problems' })).toHaveCount(0)
  await expect(start).toBeEnabled()

  // Sent anyway with both mistakes: the bank's consent answer lists each error with its path.
  await amount.fill('10.999')
  await account.fill('1234')
  await form.getByRole('checkbox', { name: /Send even if the console finds problems/ }).check()
  await expect(start).toBeEnabled()
  await start.click()
  const consent = flows.current().step('Domestic payment consent')
  await expect(consent).toHaveAttribute('data-status', 'failed', { timeout: 60_000 })
  const error = consent.getByRole('alert')
  await expect(error).toContainText('U002')
  await expect(error).toContainText('U021')
  const problems = error.locator('ul.problems > li')
  await expect(problems).toHaveCount(2)
  await expect(problems.filter({ hasText: 'U002' })).toContainText('at Data.Initiation.InstructedAmount.Amount')
  await expect(problems.filter({ hasText: 'U021' })).toContainText('at Data.Initiation.CreditorAccount.Identification')
  await saveScreen(page, '31-payment-rejected-every-error')
})
