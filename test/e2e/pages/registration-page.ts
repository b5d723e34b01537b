import { expect, type Locator, type Page } from '@playwright/test'

/** The registration builder: claim fields with their checks, the live preview, the send button. */
export class RegistrationPage {
  constructor(readonly page: Page) {}

  form(): Locator {
    return this.page.getByRole('form', { name: 'Registration claims' })
  }

  claim(name: string): Locator {
    return this.form().getByLabel(name, { exact: true })
  }

  /** The check message under a claim's field (present when the claim fails). */
  claimMessage(name: string): Locator {
    return this.form()
      .locator('.field')
      .filter({ has: this.page.getByLabel(name, { exact: true }) })
      .locator('.field-message')
  }

  send(): Locator {
    return this.form().getByRole('button', { name: 'Send registration' })
  }

  status(): Locator {
    return this.form().getByRole('status').last()
  }

  preview(): Locator {
    return this.page.getByRole('region', { name: 'JWT preview' })
  }

  async expectAllPass(): Promise<void> {
    await expect(this.form().getByRole('status').filter({ hasText: 'Every claim passes.' })).toBeVisible()
    await expect(this.send()).toBeEnabled()
  }
}
