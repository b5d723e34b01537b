import { expect, type Locator, type Page } from '@playwright/test'

export type ViewName =
  | 'Guide'
  | 'Environments & identities'
  | 'Keys & certificates'
  | 'Prerequisites'
  | 'Discovery'
  | 'Registration'
  | 'Consent flows'
  | 'Consents'
  | 'Account data'
  | 'Inspector'
  | 'JWT debugger'

/** The console shell: navigation and the current view. */
export class ConsoleApp {
  constructor(readonly page: Page) {}

  nav(view: ViewName): Locator {
    return this.page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: view, exact: false })
  }

  async open(view: ViewName): Promise<void> {
    await this.nav(view).click()
    await expect(this.nav(view)).toHaveAttribute('aria-current', 'page')
  }

  main(): Locator {
    return this.page.getByRole('main')
  }
}
