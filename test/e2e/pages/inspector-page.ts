import type { Locator, Page } from '@playwright/test'

/** The inspector: filters, the virtualised list, the selected exchange. */
export class InspectorPage {
  constructor(readonly page: Page) {}

  list(): Locator {
    return this.page.getByRole('list', { name: 'Exchanges' })
  }

  rows(): Locator {
    return this.list().getByRole('listitem')
  }

  filterPath(): Locator {
    return this.page.getByRole('search', { name: 'Filter exchanges' }).getByLabel('Path contains')
  }

  detail(): Locator {
    return this.page.getByRole('region', { name: 'Exchange detail' })
  }

  tab(name: string): Locator {
    return this.detail().getByRole('tab', { name })
  }

  responseBody(): Locator {
    return this.detail().getByRole('region', { name: 'Response body' })
  }
}
