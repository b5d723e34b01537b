import type { Locator, Page } from '@playwright/test'

/** The JWT debugger. */
export class JwtDebuggerPage {
  constructor(readonly page: Page) {}

  token(): Locator {
    return this.page.getByLabel('JWT', { exact: true })
  }

  keySource(label: RegExp): Locator {
    return this.page.getByRole('radio', { name: label })
  }

  verify(): Locator {
    return this.page.getByRole('button', { name: 'Verify' })
  }

  verification(): Locator {
    return this.page.getByRole('group', { name: 'Verification' })
  }

  check(name: string): Locator {
    return this.verification().locator(`[data-check="${name}"]`)
  }

  decoded(): Locator {
    return this.page.getByRole('region', { name: 'Decoded JWT' })
  }
}
