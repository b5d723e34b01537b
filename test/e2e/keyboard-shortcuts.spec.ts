import { expect, saveScreen, test } from './fixtures.ts'
import { ConsoleApp } from './pages/console-app.ts'
import { FlowsPage } from './pages/flows-page.ts'
import { GuidePage, setUpLocalClient } from './pages/guide-page.ts'

test('keyboard: run and move between steps, open the inspector, filter, the ? help panel, the command palette and the theme', async ({
  app: page,
}) => {
  const shell = new ConsoleApp(page)
  await setUpLocalClient(new GuidePage(page))
  await shell.open('Consent flows')
  const flows = new FlowsPage(page)
  await flows.openForm('ais')
  await flows.form('ais').getByRole('button', { name: 'Start without running' }).click()
  const steps = flows.current()
  await expect(steps.steps().first()).toHaveAttribute('data-status', 'idle')
  await page.locator('body').click({ position: { x: 5, y: 5 } })

  // R runs the flow's next step not done; R again the one after.
  await page.keyboard.press('r')
  await expect(steps.steps().nth(0)).toHaveAttribute('data-status', 'done')
  await page.keyboard.press('r')
  await expect(steps.steps().nth(1)).toHaveAttribute('data-status', 'done')
  await expect(steps.steps().nth(2)).toHaveAttribute('data-status', 'idle')

  // The run left the focus on its result: the heading of the step it ran.
  await expect(steps.steps().nth(1).getByRole('heading', { level: 3 })).toBeFocused()

  // J and K move between step cards from there; R runs the step in focus.
  const run = (n: number, name: RegExp) => steps.steps().nth(n).getByRole('button', { name })
  await page.keyboard.press('j')
  await expect(run(2, /^Run step /)).toBeFocused()
  await page.keyboard.press('k')
  await page.keyboard.press('k')
  await expect(run(0, /^Re-run step /)).toBeFocused()
  await page.keyboard.press('j')
  await expect(run(1, /^Re-run step /)).toBeFocused()
  await page.keyboard.press('j')
  await page.keyboard.press('r')
  await expect(steps.steps().nth(2)).not.toHaveAttribute('data-status', 'idle')

  // Single keys do nothing while typing in a field.
  await flows.openForm('ais')
  await flows.form('ais').getByLabel('PSU IP address').fill('ri')
  await expect(shell.nav('Consent flows')).toHaveAttribute('aria-current', 'page')

  // I opens the inspector, / focuses its filter.
  await page.locator('body').click({ position: { x: 5, y: 5 } })
  await page.keyboard.press('i')
  await expect(shell.nav('Inspector')).toHaveAttribute('aria-current', 'page')
  await page.keyboard.press('/')
  await expect(page.getByRole('search', { name: 'Filter exchanges' }).getByLabel('Path contains')).toBeFocused()
  await page.keyboard.press('Escape')
  await page.locator('body').click({ position: { x: 5, y: 5 } })

  // ? lists every shortcut.
  await page.keyboard.press('Shift+?')
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
  await expect(help).toBeVisible()
  for (const label of [
    'Open the command palette',
    'Run the step in focus',
    'Move to the next step of the flow',
    'Open the inspector',
    'Focus the search or filter of this view',
  ]) {
    await expect(help.getByRole('row', { name: new RegExp(label) })).toBeVisible()
  }
  await expect(help).toContainText('Ctrl+K')
  await saveScreen(page, '40-shortcuts-help')
  await page.keyboard.press('Escape')
  await expect(help).toHaveCount(0)

  // Ctrl+K: the command palette filters commands; Enter runs the chosen one.
  await page.keyboard.press('Control+k')
  const palette = page.getByRole('dialog', { name: 'Command palette' })
  await expect(palette.getByRole('combobox', { name: 'Command' })).toBeFocused()
  await page.keyboard.type('account data')
  await expect(palette.getByRole('option')).toHaveCount(1)
  await page.keyboard.press('Enter')
  await expect(shell.nav('Account data')).toHaveAttribute('aria-current', 'page')

  // The theme follows the OS unless chosen (palette or the navigation's picker).
  await page.emulateMedia({ colorScheme: 'light' })
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor)
  const light = await background()
  await page.keyboard.press('Control+k')
  await page.keyboard.type('theme dark')
  await page.keyboard.press('Enter')
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  expect(await background()).not.toBe(light)
  await expect(page.getByRole('navigation', { name: 'Main' }).getByLabel('Theme')).toHaveValue('dark')
  await saveScreen(page, '41-theme-dark-chosen')
  await page.reload()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await page.getByRole('navigation', { name: 'Main' }).getByLabel('Theme').selectOption('system')
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /./)
  expect(await background()).toBe(light)
  await page.emulateMedia({ colorScheme: 'dark' })
  expect(await background()).not.toBe(light)
})
