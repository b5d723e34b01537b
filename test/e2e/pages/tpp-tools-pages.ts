import { expect, type Download, type Locator, type Page } from '@playwright/test'
import { readFileSync } from 'node:fs'

/** The prerequisites view: identity and environment, the checklist with each item green or red. */
export class PrerequisitesPage {
  constructor(readonly page: Page) {}

  form(): Locator {
    return this.page.getByRole('form', { name: 'Prerequisites to check' })
  }

  checklist(): Locator {
    return this.page.getByRole('region', { name: 'Prerequisites checklist' })
  }

  item(name: string): Locator {
    return this.checklist().locator(`li[data-check="${name}"]`)
  }

  async check(): Promise<void> {
    await this.form().getByRole('button', { name: 'Check prerequisites' }).click()
    await expect(this.checklist()).toBeVisible()
  }
}

/** The keys and certificates view: the generation form and the public parts it answers. */
export class KeysPage {
  constructor(readonly page: Page) {}

  form(): Locator {
    return this.page.getByRole('form', { name: 'Generate keys and CSRs' })
  }

  parts(): Locator {
    return this.page.getByRole('region', { name: 'Generated public parts' })
  }

  /** Clicks a part's download button and answers the file's name and text. */
  async download(filename: string): Promise<{ name: string; text: string }> {
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      this.parts()
        .getByRole('button', { name: `Download ${filename}` })
        .click(),
    ])
    return { name: download.suggestedFilename(), text: await readDownload(download) }
  }
}

export async function readDownload(download: Download): Promise<string> {
  const path = await download.path()
  return readFileSync(path, 'utf8')
}
