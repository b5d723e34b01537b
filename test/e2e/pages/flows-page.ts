import { expect, type Locator, type Page } from '@playwright/test'
import { FlowStepsPart } from './flow-steps.ts'

/** Consent flows: the start form and the selected flow. */
export class FlowsPage {
  constructor(readonly page: Page) {}

  form(kind: 'ais' | 'pis'): Locator {
    return this.page.getByRole('form', { name: kind === 'ais' ? 'New AIS flow' : 'New PIS flow' })
  }

  async openForm(kind: 'ais' | 'pis'): Promise<void> {
    const form = this.form(kind)
    if (!(await form.isVisible()))
      await this.page.getByRole('button', { name: kind === 'ais' ? 'New AIS flow' : 'New payment flow' }).click()
    await expect(form).toBeVisible()
  }

  async chooseCapture(kind: 'ais' | 'pis', label: RegExp): Promise<void> {
    const select = this.form(kind).getByLabel('PSU return (capture)')
    const options = await select.locator('option').allTextContents()
    const match = options.find((o) => label.test(o))
    if (!match) throw new Error(`no capture option matching ${label} in ${options.join(' | ')}`)
    await select.selectOption({ label: match })
  }

  async startAndRun(kind: 'ais' | 'pis'): Promise<void> {
    await this.form(kind)
      .getByRole('button', { name: kind === 'ais' ? 'Start AIS flow and run' : 'Start payment flow and run' })
      .click()
  }

  current(): FlowStepsPart {
    return new FlowStepsPart(this.page.getByRole('region', { name: /flow [0-9a-f-]{36}$/ }))
  }
}
