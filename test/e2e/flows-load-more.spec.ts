import { test, expect, saveScreen } from './fixtures.ts'
import { violations } from './axe.ts'
import { openLocalFlows } from './pages/flows-page.ts'

/**
 * The flows list by pages: with a page of two flows (the console's test-only OB_CONSOLE_FLOW_PAGE_SIZE,
 * which the spawned console inherits), three runs, then a reload: the newest two are listed and "Load more"
 * adds the oldest with the time it was made, the focus on it.
 */
test.beforeAll(() => {
  process.env.OB_CONSOLE_FLOW_PAGE_SIZE = '2'
})
test.afterAll(() => {
  delete process.env.OB_CONSOLE_FLOW_PAGE_SIZE
})

test('flows survive a reload by pages: "Load more" shows the older ones with their own times', async ({
  app: page,
}) => {
  const { shell, flows } = await openLocalFlows(page)
  for (let i = 0; i < 3; i++) {
    await flows.startHeadlessAis()
    await flows.current().expectAllDone()
  }
  const list = page.getByRole('list', { name: 'Flows' })
  await expect(list.getByRole('listitem')).toHaveCount(3)
  const before = await list.getByRole('button').allTextContents()

  await page.reload()
  await shell.open('Consent flows')
  await expect(list.getByRole('listitem')).toHaveCount(2)
  const more = page.getByRole('button', { name: 'Load more (1 older)' })
  await expect(more).toBeVisible()
  expect(await list.getByRole('button').allTextContents()).toEqual(before.slice(0, 2))
  await more.click()
  await expect(list.getByRole('listitem')).toHaveCount(3)
  await expect(more).toHaveCount(0)
  // The oldest flow, as it was listed before the reload (its name and the time it was made), takes the focus.
  await expect(list.getByRole('button').nth(2)).toBeFocused()
  expect(await list.getByRole('button').allTextContents()).toEqual(before)

  await list.getByRole('button').nth(2).click()
  await flows.current().expectAllDone()
  expect(await violations(page)).toEqual([])
  await saveScreen(page, 'flows-load-more')
})
