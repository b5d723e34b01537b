import { violations } from './axe.ts'
import { expect, saveScreen, test } from './fixtures.ts'
import { FaultModePart } from './pages/fault-mode-part.ts'
import { openLocalFlows } from './pages/flows-page.ts'

test('fault mode from the flows view: a 503 rule fails a step, its hits count the tries, a bad rule is explained, the rule is removed', async ({
  app: page,
}) => {
  const { flows } = await openLocalFlows(page)
  await flows.startHeadlessAis()
  await flows.current().expectAllDone()

  const faults = new FaultModePart(page)
  await faults.open()
  await expect(faults.state()).toHaveText('Off: no rule. The local sandbox answers as a healthy bank.')
  await expect(faults.banner()).toHaveCount(0)

  // A rule the sandbox refuses: its sentence, the field marked, what was typed kept.
  await faults.add({ 'Delay (ms)': '2s', Path: '/token', 'Times (optional)': '' }, { Fault: 'latency' })
  await expect(faults.formError()).toContainText('The rule was not added: The local sandbox refused the fault rule.')
  await expect(faults.formError()).toContainText(
    'Cause rule.fault.ms is "2s": it must be a whole number of milliseconds from 0 to 120000',
  )
  await expect(faults.formError()).toContainText('Fix Correct rule.fault.ms and add it again')
  await expect(faults.form.getByLabel('Delay (ms)')).toHaveValue('2s')
  await expect(faults.form.getByLabel('Delay (ms)')).toHaveAttribute('aria-invalid', 'true')
  await expect(faults.rule('f1')).toHaveCount(0)

  // Balances answer 503 three times: the console's three tries of the GET, then the step fails.
  await faults.add(
    {
      'Status code': '503',
      Path: '/open-banking/v4.0/aisp/accounts/*/balances',
      'Times (optional)': '3',
      'Rule id (optional)': 'balances-down',
    },
    { Fault: 'status', Origin: 'base', Method: 'GET' },
  )
  await expect(faults.formError()).toHaveCount(0)
  await expect(faults.rule('balances-down')).toContainText('Status 503 instead of the answer, 3 requests')
  await expect(faults.hits('balances-down')).toHaveText('0')
  await expect(faults.state()).toHaveText(/^On: 1 of 1 rule active/)
  await expect(faults.banner()).toContainText('1 rule of the local sandbox active (balances-down)')

  const balances = flows.current().step('Balances')
  await balances.getByRole('button', { name: 'Re-run step Balances' }).click()
  await expect(balances).toHaveAttribute('data-status', 'failed', { timeout: 60_000 })
  await expect(balances.getByRole('alert')).toContainText('503')
  await expect(balances.getByRole('alert')).toContainText('Fix')
  // Read again once the step finished: three hits, and the rule is used up.
  await expect(faults.hits('balances-down')).toHaveText('3')
  await expect(faults.rule('balances-down')).toContainText('Exhausted')
  await expect(faults.banner()).toHaveCount(0)
  await saveScreen(page, 'sandbox-fault-mode')

  const found = await violations(page)
  expect(found, found.join('\n')).toEqual([])

  await faults.rule('balances-down').getByRole('button', { name: 'Remove rule balances-down' }).click()
  await expect(faults.rule('balances-down')).toHaveCount(0)
  await expect(faults.state()).toHaveText('Off: no rule. The local sandbox answers as a healthy bank.')
  // The sandbox answers as before: the step runs again and passes.
  await balances.getByRole('button', { name: 'Re-run step Balances' }).click()
  await expect(balances).toHaveAttribute('data-status', 'done', { timeout: 60_000 })
})
