/**
 * WCAG 2.2 AA in every view, in both themes, as axe-core sees it (@axe-core/playwright): after the guide has
 * walked AIS and PIS on the local sandbox, so each view shows its data, not only its empty state. Fails on any
 * serious or critical violation, and lists each one with its elements.
 */
import { violations } from './axe.ts'
import { expect, saveScreen, test } from './fixtures.ts'
import { ConsoleApp, type ViewName } from './pages/console-app.ts'
import { GuidePage } from './pages/guide-page.ts'

const VIEWS: ViewName[] = [
  'Guide',
  'Environments & identities',
  'Keys & certificates',
  'Prerequisites',
  'Discovery',
  'Registration',
  'Consent flows',
  'Consents',
  'Account data',
  'Inspector',
  'JWT debugger',
]

test('every view in both themes has no serious or critical WCAG 2.2 AA violation', async ({ app: page }) => {
  test.setTimeout(900_000)
  const shell = new ConsoleApp(page)
  const guide = new GuidePage(page)
  await guide.startLocalSandbox()
  await guide.getIdentity()
  await guide.register()
  await guide.startAis()
  await guide.aisSteps().expectAllDone()
  await guide.startPayment()
  await guide.pisSteps().expectAllDone()

  const found: string[] = []
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => {
      localStorage.setItem('ob-console:theme', t)
      document.documentElement.dataset.theme = t
    }, theme)
    for (const view of VIEWS) {
      await shell.open(view)
      // The view drawn (a lazy view shows "Loading…" first): its one h1, then axe.
      const h1 = page.getByRole('heading', { level: 1 })
      await expect(h1)
        .toHaveCount(1)
        .catch(async () => found.push(`${theme} · ${view}: ${await h1.count()} h1 headings (one per view)`))
      const problems = await violations(page)
      for (const p of problems) found.push(`${theme} · ${view}: ${p}`)
      await saveScreen(page, `a11y-${theme}-${view.replace(/\W+/g, '-').toLowerCase()}`)
    }
  }
  expect(found, found.join('\n')).toEqual([])
})

test('the first Tab reaches a skip link that moves focus to the view; a new view opens at its top with focus in it', async ({
  app: page,
}) => {
  const shell = new ConsoleApp(page)
  await expect(page.getByRole('heading', { level: 1, name: 'Guided sandbox onboarding' })).toBeVisible()
  await page.keyboard.press('Tab')
  const skip = page.getByRole('button', { name: 'Skip to the Guide view' })
  await expect(skip).toBeFocused()
  await expect(skip).toBeInViewport()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('main')).toBeFocused()

  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
  await shell.open('Environments & identities')
  await expect(page.getByRole('main', { name: 'Environments & identities' })).toBeFocused()
  expect(await page.evaluate(() => window.scrollY)).toBe(0)
})
