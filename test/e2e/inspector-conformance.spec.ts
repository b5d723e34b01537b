import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Agent, request } from 'undici'
import { expect, saveScreen, test } from './fixtures.ts'
import { ConsoleApp } from './pages/console-app.ts'
import { GuidePage, setUpLocalClient } from './pages/guide-page.ts'
import { InspectorPage } from './pages/inspector-page.ts'

/** Sets fault rules on the embedded local sandbox through its directory's admin endpoint (its own CA). */
async function setFaults(directoryUrl: string, dataDir: string, rules: unknown[]): Promise<void> {
  const agent = new Agent({
    connect: { ca: readFileSync(join(dataDir, 'local-sandbox', 'pki', 'ca-bundle.pem'), 'utf8') },
  })
  try {
    const res = await request(`${directoryUrl}/admin/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rules }),
      dispatcher: agent,
    })
    const text = await res.body.text()
    expect(res.statusCode, text).toBeLessThan(300)
  } finally {
    await agent.close()
  }
}

const TITLE =
  'the bank-conformance lens: an invalid answer served by fault mode shows its count in the list and its violation beside the body'

test(TITLE, async ({ app: page, consoleServer }) => {
  const shell = new ConsoleApp(page)
  const guide = new GuidePage(page)
  await setUpLocalClient(guide)
  // Every balances answer of the bank gets a CreditDebitIndicator the OB v4.0 schema does not allow.
  await setFaults(consoleServer.sandbox.directoryUrl, consoleServer.dataDir, [
    {
      id: 'bad-indicator',
      origin: 'base',
      method: 'GET',
      path: '/open-banking/v4.0/aisp/**/balances',
      fault: { kind: 'mutate', set: { '/Data/Balance/0/CreditDebitIndicator': 'Sideways' } },
    },
  ])
  await guide.startAis()
  await guide.aisSteps().expectAllDone()

  await shell.open('Inspector')
  const inspector = new InspectorPage(page)
  await inspector.filterPath().fill('/balances')
  const rows = inspector.list().locator('button.exchange-row')
  await expect(rows.first()).toContainText('/balances')
  // The count on the row, once its check ended.
  const flagged = rows.filter({ has: page.getByLabel(/^\d+ bank-conformance violations?$/) })
  await expect(flagged.first()).toBeVisible()
  await expect(flagged.first().getByLabel(/bank-conformance violation/)).toHaveText(/^\d+ ⚠$/)
  await flagged.first().click()

  const panel = inspector.detail().getByRole('region', { name: 'Bank conformance' })
  await expect(panel).toContainText(/\d+ violations?/)
  const table = panel.getByRole('table', { name: 'Conformance violations' })
  const row = table.getByRole('row').filter({ hasText: 'CreditDebitIndicator' }).first()
  await expect(row).toContainText(/Data\.Balance\[0\]\.CreditDebitIndicator/)
  await expect(row).toContainText('schema.enum')
  await expect(row).toContainText('"Sideways"')
  await expect(row).toContainText(/account-info\.json/)
  await saveScreen(page, 'inspector-conformance')

  // An answer the sandbox served untouched conforms.
  await inspector.filterPath().fill('/accounts/')
  await inspector.filterPath().press('Enter')
  const clean = inspector.list().locator('button.exchange-row').filter({ hasText: '/transactions' }).first()
  await clean.click()
  await expect(inspector.detail().getByRole('region', { name: 'Bank conformance' })).toContainText('conforms')
})
