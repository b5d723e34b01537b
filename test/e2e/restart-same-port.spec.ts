import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../support/free-ports.ts'
import { expect, startConsole, stopConsole, test } from './fixtures.ts'

/**
 * `ob-console serve` listens on the same port on every start (53681 unless --port says otherwise), so the
 * browser keeps what it keeps per origin from one start to the next: the theme chosen in the console. A tab
 * left open from the earlier start holds that start's token; the console says what to do about it.
 */
test('restarted on the same port: the theme chosen before is kept; a tab from the earlier start is told to open the new URL', async ({
  page,
}) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ob-console-e2e-restart-'))
  const port = await freePort()
  const nav = page.getByRole('navigation', { name: 'Main' })
  try {
    const first = await startConsole(dataDir, port)
    try {
      await page.goto(first.server.url)
      await nav.getByLabel('Theme').selectOption('dark')
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
    } finally {
      await stopConsole(first.child)
    }

    const second = await startConsole(dataDir, port)
    try {
      expect(second.server.origin).toBe(first.server.origin)
      expect(second.server.url).not.toBe(first.server.url)
      // The old tab, reloaded: its token is the first start's.
      await page.reload()
      const refused = page.getByRole('alert').filter({ hasText: 'The console cannot be reached' })
      await expect(refused).toContainText('each start of the console makes a new one')
      await expect(refused).toContainText('a tab left open from an earlier start has an old one')
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')

      // The URL this start printed: the console, in the theme chosen before the restart.
      await page.goto(second.server.url)
      await expect(nav.getByLabel('Theme')).toHaveValue('dark')
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
      await expect(refused).toHaveCount(0)
      await expect(page.getByRole('main', { name: 'Guide' })).toBeVisible()
      await expect(page).toHaveURL(second.server.origin + '/')
    } finally {
      await stopConsole(second.child)
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
})
