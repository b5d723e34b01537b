import { expect, type Locator, type Page } from '@playwright/test'
import { ConsoleApp } from './console-app.ts'
import { FlowStepsPart } from './flow-steps.ts'
import { GuidePage, setUpLocalClient } from './guide-page.ts'

/** A headless client registered on the local sandbox (through the guide), then the Consent flows view open. */
export async function openLocalFlows(page: Page): Promise<{ shell: ConsoleApp; flows: FlowsPage }> {
  const shell = new ConsoleApp(page)
  await setUpLocalClient(new GuidePage(page))
  await shell.open('Consent flows')
  return { shell, flows: new FlowsPage(page) }
}

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

  /** Starts an AIS flow with the headless capture and runs it (not waiting for it to end). */
  async startHeadlessAis(): Promise<void> {
    await this.openForm('ais')
    await this.chooseCapture('ais', /^Headless/)
    await this.startAndRun('ais')
  }

  current(): FlowStepsPart {
    return new FlowStepsPart(this.page.getByRole('region', { name: /flow [0-9a-f-]{36}$/ }))
  }
}
