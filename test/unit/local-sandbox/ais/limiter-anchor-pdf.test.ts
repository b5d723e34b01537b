import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { PsuAbsentLimiter } from '../../../../src-main/local-sandbox/ais/access/psu-absent-limiter.ts'
import { loadOrCreateAnchor } from '../../../../src-main/local-sandbox/ais/seed/history-anchor.ts'
import { FileBankDocuments } from '../../../../src-main/local-sandbox/store/bank-documents.ts'
import { PDFDocument, PDFName } from 'pdf-lib'
import { renderPdf } from '../../../../src-main/local-sandbox/ais/views/statement-pdf.ts'
import { SandboxClock } from '../../../../src-main/local-sandbox/clock.ts'
import type { ObApiError } from '../../../../src-main/local-sandbox/http/ob-error.ts'
import { EmbeddedStore } from '../../../../src-main/local-sandbox/store/embedded-store.ts'

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
  const embedded = (dir: string) => new EmbeddedStore({ state: dir, auth: dir })

  it('allows four accesses in a sliding 24 hours and answers the fifth 429 with Retry-After', async () => {
    const store = embedded(tmp())
    const clock = new SandboxClock(0, store)
    const limiter = new PsuAbsentLimiter(store, clock)
    for (let i = 0; i < 4; i++) {
      await limiter.hit('k', 'GET x')
      await clock.advance(3_600_000)
    }
    const err = await limiter.hit('k', 'GET x').then(
      () => undefined,
      (e: unknown) => e as ObApiError,
    )
    expect(err?.status).toBe(429)
    expect(err?.headers['Retry-After']).toBe(String(20 * 3600))
    await expect(limiter.hit('other', 'GET y')).resolves.toBeUndefined()
    await clock.advance(20 * 3_600_000)
    await expect(limiter.hit('k', 'GET x')).resolves.toBeUndefined()
    expect(await limiter.used('k')).toBe(4)
  })

  it('lets later pages of a counted access through, and persists the counters', async () => {
    const dir = tmp()
    const clock = new SandboxClock()
    const limiter = new PsuAbsentLimiter(embedded(dir), clock)
    await limiter.hit('k', 'x', true)
    expect(await limiter.used('k')).toBe(1)
    await limiter.hit('k', 'x', true)
    expect(await limiter.used('k')).toBe(1)
    expect(await new PsuAbsentLimiter(embedded(dir), clock).used('k')).toBe(1)
    // The second store folded the journal into the snapshot when it loaded.
    expect(JSON.parse(readFileSync(join(dir, 'ais-psu-absent.json'), 'utf8')).k).toHaveLength(1)
  })
})

describe('history anchor', () => {
  const day = (s: string) => Date.parse(`${s}T00:00:00Z`)
  it('takes the sandbox date at first start and keeps it across restarts', async () => {
    const docs = new FileBankDocuments(tmp())
    const logs: string[] = []
    expect(await loadOrCreateAnchor(docs, day('2026-03-10') + 5000, 365, (l) => logs.push(l))).toBe(day('2026-03-10'))
    expect(await loadOrCreateAnchor(docs, day('2026-06-01'), 365, (l) => logs.push(l))).toBe(day('2026-03-10'))
    expect(logs).toEqual([])
  })

  it('re-anchors a stale, future or malformed anchor, saying so', async () => {
    const root = tmp()
    const docs = new FileBankDocuments(root)
    const logs: string[] = []
    await loadOrCreateAnchor(docs, day('2025-01-01'), 365, () => {})
    expect(await loadOrCreateAnchor(docs, day('2026-03-10'), 365, (l) => logs.push(l))).toBe(day('2026-03-10'))
    expect(await loadOrCreateAnchor(docs, day('2026-03-01'), 365, (l) => logs.push(l))).toBe(day('2026-03-01'))
    writeFileSync(join(root, 'state', 'ais-history.json'), '{not json')
    expect(await loadOrCreateAnchor(docs, day('2026-03-02'), 365, (l) => logs.push(l))).toBe(day('2026-03-02'))
    expect(logs).toHaveLength(3)
    expect(logs[2]).toMatch(/state\/ais-history\.json is not valid JSON .*; taking a new history anchor/)
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
