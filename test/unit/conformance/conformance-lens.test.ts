import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ConformanceLens } from '../../../src-main/conformance/conformance-lens.ts'
import { AIS, answer, transactionsPage } from './answers.ts'

const tx = `${AIS}/accounts/acc-1/transactions`
const lenses: ConformanceLens[] = []
const lens = (o: ConstructorParameters<typeof ConformanceLens>[0] = {}) => {
  const l = new ConformanceLens(o)
  lenses.push(l)
  return l
}
afterAll(async () => {
  await Promise.all(lenses.map((l) => l.close()))
})

describe('ConformanceLens', () => {
  it('checks a small body on a later turn of the event loop, never before the caller goes on', async () => {
    const order: string[] = []
    const p = lens()
      .check(answer(tx, transactionsPage(101, 1, 1)))
      .then((r) => {
        order.push('checked')
        return r
      })
    order.push('went on')
    const r = await p
    expect(order).toEqual(['went on', 'checked'])
    expect(r.violations.map((v) => v.rule)).toEqual(['bank.page-size'])
  })

  it('checks a large body in the worker thread, with the same verdict, while the event loop stays free', async () => {
    const body = transactionsPage(100, 1, 3)
    delete body.Links.Next
    body.Data.Transaction[42].BookingDateTime = 'not a date'
    // About 2 MB: pad the descriptions (a member the schema has).
    for (const t of body.Data.Transaction) t.TransactionInformation = 'x'.repeat(350)
    const big = JSON.stringify({ ...body, Data: { Transaction: [...body.Data.Transaction] } })
    const inThread = await lens({ workerThreshold: Number.MAX_SAFE_INTEGER }).check(answer(tx, big))
    const worker = lens({ workerThreshold: 1000 })
    let ticks = 0
    const timer = setInterval(() => ticks++, 1)
    const inWorker = await worker.check(answer(tx, '', { body: Buffer.from(big) }))
    clearInterval(timer)
    expect(inWorker).toEqual(inThread)
    const found = inWorker.violations.map((v) => `${v.rule} ${v.path}`).sort()
    expect(found).toEqual(['bank.links-next Links.Next', 'schema.format Data.Transaction[42].BookingDateTime'])
    // The loop turned while the worker started, parsed and validated.
    expect(ticks).toBeGreaterThan(3)
  }, 30_000)

  it('gives back an answer still in the worker as not checked when it is closed, never leaving it waiting', async () => {
    const big = JSON.stringify(transactionsPage(100, 1, 3))
    const closing = lens({ workerThreshold: 1000 })
    const pending = closing.check(answer(tx, '', { body: Buffer.from(big) }))
    await closing.close()
    const r = await pending
    expect(r.checked).toBe(false)
    expect(JSON.stringify(r)).toContain('closed before this answer was checked')
  })

  it('never puts a secret into a violation: values and messages are redacted by content', async () => {
    const token = `eyJhbGciOiJQUzI1NiJ9.${Buffer.from(JSON.stringify({ sub: 'psu', scope: 'accounts' })).toString('base64url')}.${'s'.repeat(43)}`
    const body = transactionsPage(1, 1, 1)
    body.Data.Transaction[0].BookingDateTime = token
    const r = await lens().check(answer(tx, body))
    const v = r.violations.find((x) => x.path === 'Data.Transaction[0].BookingDateTime')!
    expect(v.rule).toBe('schema.format')
    expect(JSON.stringify(r)).not.toContain(token)
  })

  it('checks large answers on the event loop when the worker cannot start', async () => {
    const broken = lens({ workerThreshold: 10, workerFile: join(tmpdir(), 'no-such-conformance-worker.mjs') })
    const first = await broken.check(answer(tx, transactionsPage(101, 1, 1)))
    const second = await broken.check(answer(tx, transactionsPage(101, 1, 1)))
    expect(first.violations.map((v) => v.rule)).toEqual(['bank.page-size'])
    expect(second).toEqual(first)
  })

  it('says so, and finds nothing, when the OpenAPI files are not there', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'lens-'))
    try {
      const r = await lens({ openApiDir: empty }).check(answer(tx, transactionsPage(1, 1, 1)))
      expect(r).toMatchObject({ checked: false, violations: [] })
      expect(r.note).toMatch(/could not be read/)
    } finally {
      rmSync(empty, { recursive: true, force: true })
    }
  })
})
