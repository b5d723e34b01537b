import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { PsuAbsentLimiter } from '../../../../src-main/local-sandbox/ais/access/psu-absent-limiter.ts'
import { loadOrCreateAnchor } from '../../../../src-main/local-sandbox/ais/seed/history-anchor.ts'
import { PDFDocument, PDFName } from 'pdf-lib'
import { renderPdf } from '../../../../src-main/local-sandbox/ais/views/statement-pdf.ts'
import { SandboxClock } from '../../../../src-main/local-sandbox/clock.ts'
import type { ObApiError } from '../../../../src-main/local-sandbox/http/ob-error.ts'

const dirs: string[] = []
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'ais-unit-'))
  dirs.push(d)
  return d
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

describe('PSU-absent limiter', () => {
  it('allows four accesses in a sliding 24 hours and answers the fifth 429 with Retry-After', () => {
    const clock = new SandboxClock()
    const limiter = new PsuAbsentLimiter(tmp(), clock)
    for (let i = 0; i < 4; i++) {
      limiter.hit('k', 'GET x')
      clock.advance(3_600_000)
    }
    let err: ObApiError | undefined
    try {
      limiter.hit('k', 'GET x')
    } catch (e) {
      err = e as ObApiError
    }
    expect(err?.status).toBe(429)
    expect(err?.headers['Retry-After']).toBe(String(20 * 3600))
    expect(limiter.hit.bind(limiter, 'other', 'GET y')).not.toThrow()
    clock.advance(20 * 3_600_000)
    expect(() => limiter.hit('k', 'GET x')).not.toThrow()
    expect(limiter.used('k')).toBe(4)
  })

  it('lets later pages of a counted access through, and persists the counters', () => {
    const dir = tmp()
    const clock = new SandboxClock()
    const limiter = new PsuAbsentLimiter(dir, clock)
    limiter.hit('k', 'x', true)
    expect(limiter.used('k')).toBe(1)
    limiter.hit('k', 'x', true)
    expect(limiter.used('k')).toBe(1)
    expect(new PsuAbsentLimiter(dir, clock).used('k')).toBe(1)
    expect(JSON.parse(readFileSync(join(dir, 'ais-psu-absent.json'), 'utf8')).k).toHaveLength(1)
  })
})

describe('history anchor', () => {
  const day = (s: string) => Date.parse(`${s}T00:00:00Z`)
  it('takes the sandbox date at first start and keeps it across restarts', () => {
    const dir = tmp()
    const logs: string[] = []
    expect(loadOrCreateAnchor(dir, day('2026-03-10') + 5000, 365, (l) => logs.push(l))).toBe(day('2026-03-10'))
    expect(loadOrCreateAnchor(dir, day('2026-06-01'), 365, (l) => logs.push(l))).toBe(day('2026-03-10'))
    expect(logs).toEqual([])
  })

  it('re-anchors a stale, future or malformed anchor, saying so', () => {
    const dir = tmp()
    const logs: string[] = []
    loadOrCreateAnchor(dir, day('2025-01-01'), 365, () => {})
    expect(loadOrCreateAnchor(dir, day('2026-03-10'), 365, (l) => logs.push(l))).toBe(day('2026-03-10'))
    expect(loadOrCreateAnchor(dir, day('2026-03-01'), 365, (l) => logs.push(l))).toBe(day('2026-03-01'))
    writeFileSync(join(dir, 'ais-history.json'), '{not json')
    expect(loadOrCreateAnchor(dir, day('2026-03-02'), 365, (l) => logs.push(l))).toBe(day('2026-03-02'))
    expect(logs).toHaveLength(3)
  })
})

describe('statement PDF writer', () => {
  it('writes a PDF that pdf-lib reads back: one A4 page per 52 lines, the title, only printable text', async () => {
    const lines = Array.from({ length: 130 }, (_, i) => ({
      text: `line ${i} (with parens) and a \\ backslash £`,
      mono: i % 2 === 0,
    }))
    const bytes = await renderPdf(lines, 'footer', 'title £')
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    const doc = await PDFDocument.load(bytes, { updateMetadata: false })
    expect(doc.getPageCount()).toBe(3)
    expect(doc.getPages().map((p) => [p.getWidth(), p.getHeight()])).toEqual([
      [595, 842],
      [595, 842],
      [595, 842],
    ])
    expect(doc.getTitle()).toBe('title ?')
    expect(doc.getProducer()).toBe('OB Console local sandbox')
    const fonts = new Set(
      doc.context
        .enumerateIndirectObjects()
        .map(([, o]) => String((o as { get?(k: unknown): unknown }).get?.(PDFName.of('BaseFont')) ?? ''))
        .filter(Boolean),
    )
    expect([...fonts].sort()).toEqual(['/Courier', '/Helvetica', '/Helvetica-Bold'])
  })

  it('an empty statement is one page with its footer', async () => {
    const doc = await PDFDocument.load(await renderPdf([], 'footer', 'empty'))
    expect(doc.getPageCount()).toBe(1)
  })
})
