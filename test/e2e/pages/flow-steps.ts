import { expect, type Locator } from '@playwright/test'

/** The step cards of one flow (in the guide or the flows view). */
export class FlowStepsPart {
  constructor(readonly root: Locator) {}

  step(title: string): Locator {
    return this.root.getByRole('article', { name: `Step ${title}`, exact: true })
  }

  steps(): Locator {
    return this.root.locator('article.step')
  }

  async expectAllDone(count?: number): Promise<void> {
    if (count !== undefined) await expect(this.steps()).toHaveCount(count)
    await expect(this.steps().first()).toBeVisible({ timeout: 30_000 })
    const n = await this.steps().count()
    for (let i = 0; i < n; i++)
      await expect(this.steps().nth(i)).toHaveAttribute('data-status', 'done', { timeout: 60_000 })
  }

  /** The "Open exchange …" buttons of a step. */
  exchangeLinks(title: string): Locator {
    return this.step(title).getByRole('button', { name: /^Open exchange / })
  }

  awaiting(): Locator {
    return this.root.getByRole('region', { name: 'Waiting for the PSU' })
  }
}
