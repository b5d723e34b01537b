import { expect, type Locator, type Page } from '@playwright/test'

/** The sequence diagram tab of the selected flow (flows view). */
export class SequencePart {
  constructor(
    readonly page: Page,
    readonly flowRegion: Locator,
  ) {}

  async open(): Promise<void> {
    await this.flowRegion.getByRole('tab', { name: 'Sequence diagram' }).click()
    await expect(this.root()).toBeVisible()
  }

  async showSteps(): Promise<void> {
    await this.flowRegion.getByRole('tab', { name: 'Steps' }).click()
  }

  root(): Locator {
    return this.flowRegion.getByRole('region', { name: 'Sequence diagram' })
  }

  svg(): Locator {
    return this.root().locator('svg')
  }

  /** Arrows that open an exchange. */
  exchangeArrows(): Locator {
    return this.root().getByRole('button', { name: /^Open exchange / })
  }

  failedArrows(): Locator {
    return this.root().locator('g.seq-arrow[data-failed="true"]')
  }

  arrow(text: RegExp): Locator {
    return this.root().locator('g.seq-arrow').filter({ hasText: text })
  }
}
