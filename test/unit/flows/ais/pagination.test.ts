import { describe, expect, it } from 'vitest'
import { AppError } from '../../../../src-main/core/app-error.ts'
import { followPages, type ObPage } from '../../../../src-main/flows/ais/pagination.ts'

const base = 'https://bank.test/open-banking/v4.0/aisp/accounts/a/transactions'
const page = (n: number, next?: string): ObPage => ({
  Data: { Transaction: [n] },
  Links: { Self: `${base}?page=${n}`, Next: next },
  Meta: { TotalPages: 3 },
})

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
    expect(err).toBeInstanceOf(AppError)
    expect(err.code).toBe('ORIGIN_NOT_ALLOWED')
    expect(fetched).toHaveLength(1)
  })

  it('refuses a Next over http, malformed, or back to a page already read, without calling it', async () => {
    for (const [next, code, what] of [
      [`${base.replace('https:', 'http:')}?page=2`, 'ORIGIN_NOT_ALLOWED', /Links.Next of page 1 is not https/],
      ['https://[nope', 'BANK_ANSWER_INVALID', /Links.Next of page 1 is not a URL/],
      [`${base}?page=1`, 'BANK_ANSWER_INVALID', /Links.Next of page 1 points back to page 1, already read/],
    ] as const) {
      const fetched: string[] = []
      const err = await followPages(`${base}?page=1`, async (url) => {
        fetched.push(url)
        return page(1, next)
      }).catch((e) => e)
      expect(err.code).toBe(code)
      expect(err.what).toMatch(what)
      expect(fetched).toHaveLength(1)
    }
    const fetched: string[] = []
    const loop = await followPages(`${base}?page=1`, async (url) => {
      fetched.push(url)
      return page(1, url.includes('page=1') ? `${base}?page=2` : `${base}?page=1`)
    }).catch((e) => e)
    expect([loop.code, loop.what]).toEqual([
      'BANK_ANSWER_INVALID',
      expect.stringMatching(/Links.Next of page 2 points back to page 1/),
    ])
    expect(fetched).toHaveLength(2)
  })

  it('stops at the page cap', async () => {
    let n = 0
    const capped = await followPages(`${base}?page=1`, async () => page(++n, `${base}?page=${n + 1}`), { maxPages: 5 })
    expect(capped).toMatchObject({ stoppedBecause: 'page-cap' })
    expect(capped.pages).toBe(5)
  })
})
