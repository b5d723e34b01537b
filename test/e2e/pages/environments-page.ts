import { expect, type Locator, type Page } from '@playwright/test'

/** Environments & identities. */
export class EnvironmentsPage {
  constructor(readonly page: Page) {}

  form(): Locator {
    return this.page.getByRole('form', { name: /^(New environment|Edit )/ })
  }

  async addBankSandbox(v: { name: string; baseUrl: string; authUrl: string; tppName: string }): Promise<void> {
    await this.page.getByRole('button', { name: 'New environment' }).click()
    const form = this.form()
    await form.getByLabel('Name').fill(v.name)
    await expect(form.getByLabel('Kind')).toHaveValue('bank-sandbox')
    await form.getByLabel('Base URL', { exact: true }).fill(v.baseUrl)
    await form.getByLabel('Auth URL', { exact: true }).fill(v.authUrl)
    await expect(form.getByLabel('TLS verification')).toHaveValue('off')
    await form.getByLabel('TPP identity used here').selectOption({ label: v.tppName })
    await form.getByRole('button', { name: 'Save environment' }).click()
    await expect(this.page.getByRole('article', { name: `Environment ${v.name}` })).toBeVisible()
  }
}
