import { expect, type Locator, type Page } from '@playwright/test'

/** The local sandbox's Fault mode panel in the flows view, and the banner above the flows. */
export class FaultModePart {
  readonly root: Locator
  readonly form: Locator

  constructor(readonly page: Page) {
    this.root = page.getByRole('region', { name: 'Fault mode' })
    this.form = this.root.getByRole('form', { name: 'Add a fault rule' })
  }

  async open(): Promise<void> {
    if (!(await this.root.isVisible())) await this.page.getByRole('button', { name: 'Fault mode', exact: true }).click()
    await expect(this.root).toBeVisible()
  }

  banner(): Locator {
    return this.page.getByRole('status').filter({ hasText: /^Fault mode is on/ })
  }

  state(): Locator {
    return this.root.getByLabel('Fault mode state')
  }

  rule(id: string): Locator {
    return this.root.getByRole('row', { name: `Rule ${id}` })
  }

  hits(id: string): Locator {
    return this.rule(id).getByLabel(`Hits of ${id}`)
  }

  /** Fills the small form's fields by label (only those given) and adds the rule. */
  async add(fields: Record<string, string>, selects: Record<string, string> = {}): Promise<void> {
    for (const [label, option] of Object.entries(selects)) await this.form.getByLabel(label).selectOption(option)
    for (const [label, value] of Object.entries(fields)) await this.form.getByLabel(label).fill(value)
    await this.form.getByRole('button', { name: 'Add rule' }).click()
  }

  formError(): Locator {
    return this.form.getByRole('alert')
  }
}
