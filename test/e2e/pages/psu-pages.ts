import { expect, type Page } from '@playwright/test'

/** The local sandbox's PSU pages (login, account selection or payment confirmation). */
export class PsuPages {
  constructor(readonly page: Page) {}

  async logIn(username: string, password: string): Promise<void> {
    await expect(this.page.getByRole('heading', { name: 'Log in to your bank' })).toBeVisible()
    await this.page.getByLabel('Username').fill(username)
    await this.page.getByLabel('Password').fill(password)
    await this.page.getByRole('button', { name: 'Log in' }).click()
  }

  async approveAccounts(): Promise<void> {
    await expect(this.page.getByRole('heading', { name: /^Share account information with/ })).toBeVisible()
    await this.page.getByRole('button', { name: 'Approve' }).click()
  }

  async approvePayment(): Promise<void> {
    await expect(this.page.getByRole('heading', { name: /^Confirm a payment requested by/ })).toBeVisible()
    await this.page.getByRole('button', { name: 'Approve' }).click()
  }
}
