import { expect, saveScreen, test } from './fixtures.ts'
import { ConsoleApp } from './pages/console-app.ts'
import { FlowsPage } from './pages/flows-page.ts'
import { GuidePage, setUpLocalClient } from './pages/guide-page.ts'

const TITLE =
  "the conformance report on a local flow: the console's own journey passes every rule; a token used after expiry shows red with its failure"

test(TITLE, async ({ app: page }) => {
  const shell = new ConsoleApp(page)
  await setUpLocalClient(new GuidePage(page))

  await shell.open('Consent flows')
  const flows = new FlowsPage(page)
  await flows.openForm('ais')
  await flows.chooseCapture('ais', /^Headless/)
  await flows
    .form('ais')
    .getByRole('checkbox', { name: /PSU present/ })
    .uncheck()
  await flows.startAndRun('ais')
  await expect(flows.current().step('Transactions')).toHaveAttribute('data-status', 'done', { timeout: 90_000 })
  const region = flows.current().root

  // The panel is read again as the steps finish: the journey kept every rule.
  const panel = region.getByRole('region', { name: 'Conformance report' })
  await expect(panel.getByLabel('Conformance summary')).toContainText('Every rule the sandbox checked passed', {
    timeout: 30_000,
  })
  const rules = panel.getByRole('table', { name: 'Conformance rules' })
  await expect(rules.getByRole('row', { name: 'Rule headers.required' })).toHaveAttribute('data-status', 'pass')
  await expect(rules.getByRole('row', { name: 'Rule psu-absent.budget' })).toHaveAttribute('data-status', 'pass')
  await expect(rules.getByRole('row', { name: 'Rule pagination' })).toHaveAttribute('data-status', 'pass')

  // Seven days of sandbox time later the hour-long access token has expired; re-running a data step sends
  // it all the same (the console leaves that judgement to the bank), and the sandbox records it.
  await region
    .getByRole('group', { name: 'Move the sandbox clock forward' })
    .getByRole('button', { name: '+7 days' })
    .click()
  await expect(region.getByRole('region', { name: 'Sandbox clock' }).getByLabel('Sandbox time')).toContainText(
    '(7 d ahead of wall time)',
  )
  await region.getByRole('tab', { name: 'Steps' }).click()
  const balances = flows.current().step('Balances')
  await balances.getByRole('button', { name: 'Re-run step Balances' }).click()
  await expect(balances).toHaveAttribute('data-status', 'failed', { timeout: 30_000 })

  await panel.getByRole('button', { name: 'Refresh' }).click()
  await expect(panel.getByLabel('Conformance summary')).toContainText('1 rule failed')
  await expect(panel.getByLabel('Conformance summary')).toHaveClass('text-fail')
  const expiry = rules.getByRole('row', { name: 'Rule token.expiry' })
  await expect(expiry).toHaveAttribute('data-status', 'fail')
  await expiry.getByText(/last failures?$/).click()
  const failures = expiry.getByLabel('Failures of token.expiry')
  await expect(failures).toBeVisible()
  await expect(failures).toContainText(/GET \/open-banking\/v4\.0\/aisp\/accounts\/[^/]+\/balances → 401 \(refused\)/)
  await expect(failures).toContainText('the access token expired at')
  await expect(expiry).toContainText('Rests on: §5 items 4 and 8')
  await expect(rules.getByRole('row', { name: 'Rule headers.required' })).toHaveAttribute('data-status', 'pass')
  await saveScreen(page, 'conformance-report')

  // The same report from the registered client's row.
  await shell.open('Registration')
  const clients = page.getByRole('table', { name: 'Registered clients' })
  await clients
    .getByRole('button', { name: /^Conformance report of client / })
    .first()
    .click()
  const fromRow = clients.getByRole('region', { name: 'Conformance report' })
  await expect(fromRow.getByLabel('Conformance summary')).toContainText('1 rule failed')
  await expect(fromRow.getByRole('row', { name: 'Rule token.expiry' })).toHaveAttribute('data-status', 'fail')
})
