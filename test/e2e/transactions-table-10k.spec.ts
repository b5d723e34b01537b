import { expect, saveScreen, test } from './fixtures.ts'
import { ConsoleApp } from './pages/console-app.ts'
import { DataPage, growAccountData } from './pages/data-page.ts'
import { FlowsPage } from './pages/flows-page.ts'
import { GuidePage, setUpLocalClient } from './pages/guide-page.ts'

const TARGET = 10_000

test('10,000 transactions in one virtualised table: page progress, pending-to-booked matches, filters, sort, export', async ({
  app: page,
  consoleServer,
}) => {
  const shell = new ConsoleApp(page)
  const guide = new GuidePage(page)
  const data = new DataPage(page)
  await setUpLocalClient(guide)
  await guide.startAis()
  await guide.aisSteps().expectAllDone()

  // The sandbox books pending transactions under new ids as its clock passes their expected dates; the
  // client's next flow matches them to the pending ids it saw.
  const clock = await page.request.post(`${consoleServer.sandbox.directoryUrl}/admin/clock`, {
    data: { advance: 'P5D' },
  })
  expect(clock.ok(), await clock.text()).toBe(true)

  // The real answer grown to 10,000 rows (see growAccountData); the second flow's data comes through it.
  const handed = await growAccountData(page, TARGET)
  await shell.open('Consent flows')
  // Every progress line the transactions step shows while it reads its pages.
  await page.evaluate(() => {
    const seen: string[] = []
    ;(window as unknown as { progressSeen: string[] }).progressSeen = seen
    new MutationObserver(() => {
      document.querySelectorAll('[aria-label^="Progress of"]').forEach((el) => {
        if (!seen.includes(el.textContent ?? '')) seen.push(el.textContent ?? '')
      })
    }).observe(document.body, { subtree: true, childList: true, characterData: true })
  })
  // Each transactions page 40 ms slower (the sandbox's latency fault): the local read then lasts longer than the
  // progress pacing interval (100 ms), as a bank's does, and its page progress shows.
  const faults = `${consoleServer.sandbox.directoryUrl}/admin/faults`
  const slow = await page.request.post(faults, {
    data: {
      id: 'slow-pages',
      origin: 'base',
      path: '/open-banking/v4.0/aisp/accounts/*/transactions',
      fault: { kind: 'latency', ms: 40 },
    },
  })
  expect(slow.status(), await slow.text()).toBe(201)
  const flows = new FlowsPage(page)
  await flows.openForm('ais')
  await flows.startAndRun('ais')
  await flows.current().expectAllDone()
  expect((await page.request.delete(`${faults}/slow-pages`)).ok()).toBe(true)
  const progress = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen)
  expect(progress.length, 'progress lines seen while the pages loaded').toBeGreaterThan(0)
  expect(progress[0]).toMatch(
    /^Reading transactions of \S+ \(account \d+ of \d+\): page \d+ of \d+ · [\d,]+ rows so far$/,
  )
  test
    .info()
    .annotations.push({ type: 'progress lines seen', description: `${progress.length}, e.g. "${progress.at(-1)}"` })

  await shell.open('Account data')
  await data.expectShown(TARGET, TARGET)
  // Only the rows in view are in the DOM.
  expect(await data.rows().count()).toBeLessThan(80)
  await saveScreen(page, '20-transactions-10k')

  // Pending-to-booked matches, visible and filterable.
  await data.filters().getByLabel('Status').selectOption('matched')
  await expect(data.count()).not.toHaveAttribute('data-shown', String(TARGET))
  const matched = Number(await data.count().getAttribute('data-shown'))
  expect(matched).toBeGreaterThan(0)
  await expect(data.rows().first()).toContainText('was pending as ptx-')
  await saveScreen(page, '21-transactions-matched')
  // Pending rows: as many as the answer held (the seed leaves none pending on some days), each drawn one PDNG.
  await data.filters().getByLabel('Status').selectOption('PDNG')
  await expect(data.count()).toHaveAttribute('data-shown', String(handed.pending))
  if (handed.pending > 0) await expect(data.rows().first()).toHaveAttribute('data-status', 'PDNG')
  expect(await data.rows().evaluateAll((rows) => rows.filter((r) => r.dataset.status !== 'PDNG').length)).toBe(0)
  await data.filters().getByLabel('Status').selectOption('all')
  await data.expectShown(TARGET)

  // Filter times, measured in the page: from the input event to the frame after the new count is drawn
  // (`total`), and the filter and sort alone (`compute`, the table's own performance.now() around them).
  const firstId = (await data.rows().first().locator('code').first().textContent())!
  const timeFilter = (label: string, value: string) =>
    page.evaluate(
      ({ label, value }) =>
        new Promise<{ total: number; compute: number }>((resolve, reject) => {
          const filters = document.querySelector('[role="search"][aria-label="Filter transactions"]')!
          const field = Array.from(filters.querySelectorAll('label')).find((l) => l.textContent === label)!
          const input = document.getElementById(field.htmlFor) as HTMLInputElement | HTMLSelectElement
          const count = document.querySelector('[aria-label="Transactions shown"]')!
          const before = count.getAttribute('data-shown')
          const proto = input instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype
          const started = performance.now()
          Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(input, value)
          input.dispatchEvent(new Event(input instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }))
          const wait = () => {
            if (count.getAttribute('data-shown') !== before) {
              requestAnimationFrame(() =>
                resolve({ total: performance.now() - started, compute: Number(count.getAttribute('data-filter-ms')) }),
              )
            } else if (performance.now() - started > 20_000) reject(new Error(`the count stayed ${before}`))
            else requestAnimationFrame(wait)
          }
          requestAnimationFrame(wait)
        }),
      { label, value },
    )
  const byText = await timeFilter('Search transactions', firstId.replace(/~\d+$/, ''))
  expect(Number(await data.count().getAttribute('data-shown'))).toBeGreaterThan(0)
  await expect(data.rows().first()).toContainText(firstId.replace(/~\d+$/, ''))
  const cleared = await timeFilter('Search transactions', '')
  const byAmount = await timeFilter('Amount at least', '100')
  const byDebit = await timeFilter('Credit or debit', 'Debit')
  await expect(data.rows().first().getByRole('cell').nth(4)).toContainText('-')
  await page.getByRole('button', { name: 'Clear filters' }).click()
  await data.expectShown(TARGET)

  // Sort by amount, largest first, then smallest first.
  await data.columnHeader('Amount').getByRole('button').click()
  await expect(data.columnHeader('Amount')).toHaveAttribute('aria-sort', 'descending')
  const amount = async (i: number) =>
    Number(((await data.rows().nth(i).getByRole('cell').nth(4).textContent()) ?? '').replace(/[^\d.-]/g, ''))
  expect(await amount(0)).toBeGreaterThanOrEqual(await amount(1))
  await data.columnHeader('Amount').getByRole('button').click()
  await expect(data.columnHeader('Amount')).toHaveAttribute('aria-sort', 'ascending')
  expect(await amount(0)).toBeLessThanOrEqual(await amount(1))

  // Scrolling the 10,000 rows: frame times while the body scrolls from top to bottom, 1,200 px a frame
  // (every frame brings a screenful of new rows), against the same page's idle frames in the same run.
  const frames = (scrollBy: number, count: number) =>
    data.body().evaluate(
      (el, { scrollBy, count }) =>
        new Promise<{ frames: number; meanMs: number; p95Ms: number; maxMs: number; totalMs: number }>((resolve) => {
          el.scrollTop = 0
          const times: number[] = []
          let started = performance.now()
          let last = started
          const step = () => {
            const now = performance.now()
            times.push(now - last)
            last = now
            if ((scrollBy && el.scrollTop + el.clientHeight >= el.scrollHeight - 1) || times.length > count) {
              const sorted = times.slice(1).sort((a, b) => a - b)
              resolve({
                frames: sorted.length,
                meanMs: sorted.reduce((a, b) => a + b, 0) / sorted.length,
                p95Ms: sorted[Math.floor(sorted.length * 0.95)]!,
                maxMs: sorted.at(-1)!,
                totalMs: now - started,
              })
              return
            }
            el.scrollTop += scrollBy
            requestAnimationFrame(step)
          }
          // From the top, once the first rows are drawn.
          requestAnimationFrame(() =>
            requestAnimationFrame(() => {
              started = last = performance.now()
              requestAnimationFrame(step)
            }),
          )
        }),
      { scrollBy, count },
    )
  const idle = await frames(0, 120)
  const wheel = await frames(100, 300)
  const scroll = await frames(1200, 2000)
  // The floor: the same rows as static HTML (1,000 copies of the drawn rows, no React, nothing drawn on
  // scroll) in a box of the same size and classes, scrolled the same way in the same page.
  const floor = await data.body().evaluate(
    (el) =>
      new Promise<{ frames: number; meanMs: number; p95Ms: number }>((resolve) => {
        const box = el.cloneNode(false) as HTMLElement
        box.removeAttribute('aria-label')
        box.setAttribute('data-floor', '')
        const inner = document.createElement('div')
        inner.style.position = 'relative'
        const rows = Array.from(el.querySelectorAll<HTMLElement>('[role="row"]'))
        for (let i = 0; i < 1000; i++) {
          const row = rows[i % rows.length]!.cloneNode(true) as HTMLElement
          row.removeAttribute('role')
          row.style.top = `${i * 34}px`
          inner.appendChild(row)
        }
        inner.style.height = `${1000 * 34}px`
        box.appendChild(inner)
        el.parentElement!.appendChild(box)
        const times: number[] = []
        let last = performance.now()
        const step = () => {
          const now = performance.now()
          times.push(now - last)
          last = now
          if (box.scrollTop + box.clientHeight >= box.scrollHeight - 1 || times.length > 300) {
            box.remove()
            const sorted = times.slice(1).sort((a, b) => a - b)
            resolve({
              frames: sorted.length,
              meanMs: sorted.reduce((a, b) => a + b, 0) / sorted.length,
              p95Ms: sorted[Math.floor(sorted.length * 0.95)]!,
            })
            return
          }
          box.scrollTop += 1200
          requestAnimationFrame(step)
        }
        requestAnimationFrame(step)
      }),
  )
  await expect(data.body().locator(`[aria-rowindex="${TARGET + 1}"]`)).toBeVisible()
  expect(await data.rows().count()).toBeLessThan(80)

  const figures = {
    rows: TARGET,
    filterText: byText,
    filterCleared: cleared,
    filterAmount: byAmount,
    filterDebit: byDebit,
    scroll,
    wheel,
    floorStaticRows: floor,
    idleFrames: idle,
  }
  test.info().annotations.push({ type: '10,000-row figures (ms)', description: JSON.stringify(figures) })
  console.log(`10,000-row figures (ms): ${JSON.stringify(figures)}`)

  // Export exactly what is shown: CSV of everything, JSON of a filter.
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: /^Export CSV/ }).click(),
  ])
  expect(csv.suggestedFilename()).toMatch(/^transactions-.*\.csv$/)
  const csvText = await (
    await csv.createReadStream()
  )
    .toArray()
    .then((chunks) => Buffer.concat(chunks).toString('utf8'))
  expect(csvText.split('\r\n').filter(Boolean)).toHaveLength(TARGET + 1)
  expect(
    csvText.startsWith(
      'accountId,transactionId,status,bookingDateTime,creditDebitIndicator,amount,currency,description,reference,matchedPendingId\r\n',
    ),
  ).toBe(true)
  await data.filters().getByLabel('Status').selectOption('matched')
  await data.expectShown(matched)
  const [json] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: /^Export JSON/ }).click(),
  ])
  const rows = JSON.parse(
    await (await json.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8')),
  ) as Array<{ matchedPendingId?: string }>
  expect(rows).toHaveLength(matched)
  expect(rows.every((r) => r.matchedPendingId?.startsWith('ptx-'))).toBe(true)

  // Accounts and balances are searchable too.
  const accounts = await data.accountsTable().getByRole('row').count()
  const firstAccount = (await data.accountsTable().getByRole('row').nth(1).locator('code').first().textContent())!
  await data.accountsSearch().fill(firstAccount)
  await expect(page.getByLabel('Accounts shown')).toContainText(`1 of ${accounts - 1} account`)
  await data.accountsSearch().fill('ITAV')
  await expect(page.getByLabel('Accounts shown')).toContainText(`${accounts - 1} of ${accounts - 1}`)
})
