import { expect, type Locator, type Page } from '@playwright/test'
import { FlowStepsPart } from './flow-steps.ts'

/** The guided onboarding: five stages, each a region named "Step n: …". */
export class GuidePage {
  constructor(readonly page: Page) {}

  stage(n: number): Locator {
    return this.page.getByRole('region', { name: new RegExp(`^Step ${n}: `) })
  }

  async expectStageDone(n: number, timeout = 90_000): Promise<void> {
    await expect(this.stage(n)).toHaveAttribute('data-state', 'done', { timeout })
  }

  async startLocalSandbox(): Promise<void> {
    const button = this.stage(1).getByRole('button', { name: 'Start the local sandbox' })
    if (await button.isVisible()) await button.click()
    await this.expectStageDone(1)
  }

  async getIdentity(): Promise<void> {
    await this.stage(2).getByRole('button', { name: 'Get a starter kit from the local directory' }).click()
    await this.expectStageDone(2)
  }

  async chooseCapture(label: RegExp): Promise<void> {
    await this.stage(3).getByRole('radio', { name: label }).check()
  }

  async register(): Promise<string> {
    await this.stage(3).getByRole('button', { name: 'Register a client' }).click()
    await this.expectStageDone(3)
    return (await this.page.getByTestId('guide-client-id').textContent()) ?? ''
  }

  aisSteps(): FlowStepsPart {
    return new FlowStepsPart(this.stage(4))
  }

  pisSteps(): FlowStepsPart {
    return new FlowStepsPart(this.stage(5))
  }

  async setPsuIp(address: string): Promise<void> {
    await this.stage(4)
      .getByLabel(/PSU's IP address/)
      .fill(address)
  }

  async startAis(): Promise<void> {
    await this.stage(4).getByRole('button', { name: 'Authorise an AIS consent and read data' }).click()
  }

  async startPayment(): Promise<void> {
    await this.stage(5)
      .getByRole('button', { name: /^Make a .* payment$/ })
      .click()
  }

  accounts(): Locator {
    return this.stage(4).getByRole('article', { name: /^Account / })
  }
}

/** Guide stages 1 to 3 on the local sandbox: sandbox, identity, and a client for the chosen way the PSU approves. */
export async function setUpLocalClient(guide: GuidePage, capture: RegExp = /^Headless/): Promise<string> {
  await guide.startLocalSandbox()
  await guide.getIdentity()
  await guide.chooseCapture(capture)
  return guide.register()
}
