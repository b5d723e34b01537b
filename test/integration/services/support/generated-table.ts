import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { expect } from 'vitest'

const REPO = resolve(import.meta.dirname, '../../../..')

/**
 * Compares what a test generated with the part of a doc between its two marker lines: a difference fails the
 * test, naming the first line that differs. With OB_UPDATE_DOCS=1 the part is rewritten instead (then review
 * it with `git diff`).
 */
export function compareGeneratedTable(doc: string, begin: string, end: string, content: string): void {
  const path = join(REPO, doc)
  const text = readFileSync(path, 'utf8')
  const start = text.indexOf(begin)
  const stop = text.indexOf(end)
  expect(start, `${doc} keeps the generated part between ${begin} and ${end}`).toBeGreaterThan(0)
  expect(stop).toBeGreaterThan(start)
  const wanted = `${begin}\n\n${content}\n\n${end}`
  if (process.env.OB_UPDATE_DOCS === '1') {
    writeFileSync(path, `${text.slice(0, start)}${wanted}${text.slice(stop + end.length)}`)
    return
  }
  const current = text.slice(start, stop + end.length)
  if (current === wanted) return
  const a = current.split('\n')
  const b = wanted.split('\n')
  const at = a.findIndex((line, i) => line !== b[i])
  const line = at < 0 ? a.length : at
  expect.fail(
    `${doc} differs from what the test observed at line ${line + 1} of its generated part:\n  doc:  ${a[line] ?? '(nothing)'}\n  run:  ${b[line] ?? '(nothing)'}\nRun the test with OB_UPDATE_DOCS=1 to rewrite it, and review the change with git diff.`,
  )
}
