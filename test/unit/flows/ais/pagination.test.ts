import { describe, expect, it } from 'vitest'
import { followPages, PaginationError, type ObPage } from '../../../../src-main/flows/ais/pagination.ts'

const base = 'https://bank.test/open-banking/v4.0/aisp/accounts/a/transactions'
const page = (n: number, next?: string): ObPage => ({ Data: { Transaction: [n] }, Links: { Self: `${base}?page=${n}`, Next: next }, Meta: { TotalPages: 3 } })

describe('followPages', () => {
  it('follows Next to the last page', async () => {
    const fetched: string[] = []
    const r = await followPages(`${base}?page=1`, async (url) => {
      fetched.push(url)
      const n = Number(new URL(url).searchParams.get('page'))
      return page(n, n < 3 ? `${base}?page=${n + 1}` : undefined)
    })
    expect(r.stoppedBecause).toBe('last-page')
    expect(r.pages).toBe(3)
    expect(fetched).toEqual([1, 2, 3].map((n) => `${base}?page=${n}`))
  })

  it('refuses a Next on another host, without calling it', async () => {
    const fetched: string[] = []
    const err = await followPages(`${base}?page=1`, async (url) => {
      fetched.push(url)
      return page(1, 'https://evil.test/steal?page=2')
    }).catch((e) => e)
    expect(err).toBeInstanceOf(PaginationError)
    expect(err.code).toBe('ORIGIN_NOT_ALLOWED')
    expect(fetched).toHaveLength(1)
  })

  it('stops on a loop and at the page cap', async () => {
    const loop = await followPages(`${base}?page=1`, async (url) => page(1, url.includes('page=1') ? `${base}?page=2` : `${base}?page=1`))
    expect(loop).toMatchObject({ stoppedBecause: 'loop' })
    expect(loop.pages).toBe(2)
    let n = 0
    const capped = await followPages(`${base}?page=0`, async () => page(++n, `${base}?page=${n}`), { maxPages: 5 })
    expect(capped).toMatchObject({ stoppedBecause: 'page-cap' })
    expect(capped.pages).toBe(5)
  })
})
