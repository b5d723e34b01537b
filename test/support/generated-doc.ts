import { readFileSync, writeFileSync } from 'node:fs'

/**
 * A section of a doc written from code, between `<!-- NAME:begin ... -->` and `<!-- NAME:end -->`. `check`
 * compares it with what the code generates and returns undefined when they agree, else a message naming the
 * first line that differs; with `OB_UPDATE_DOCS=1` in the environment it rewrites the section instead (and
 * returns undefined). The begin marker's own text (what generates it) is kept as it is.
 *
 * @example expect(generatedSection('docs/engine.md', 'error-codes').check(table)).toBeUndefined()
 */
export function generatedSection(file: string, name: string) {
  return {
    check(generated: string): string | undefined {
      const doc = readFileSync(file, 'utf8')
      const beginAt = doc.indexOf(`<!-- ${name}:begin`)
      const endAt = doc.indexOf(`<!-- ${name}:end -->`)
      if (beginAt < 0 || endAt < beginAt)
        return `${file} has no <!-- ${name}:begin … --> … <!-- ${name}:end --> section`
      const bodyAt = doc.indexOf('\n', beginAt) + 1
      const current = doc.slice(bodyAt, endAt)
      const wanted = `\n${generated.trim()}\n\n`
      if (current === wanted) return undefined
      if (process.env.OB_UPDATE_DOCS === '1') {
        writeFileSync(file, doc.slice(0, bodyAt) + wanted + doc.slice(endAt))
        return undefined
      }
      const have = current.split('\n')
      const want = wanted.split('\n')
      const i = want.findIndex((line, k) => line !== have[k])
      const at = i < 0 ? want.length : i
      const line = doc.slice(0, bodyAt).split('\n').length + at
      return (
        `${file} line ${line} is not what the code generates for the section "${name}":\n` +
        `  in the doc:  ${have[at] ?? '(end of the section)'}\n` +
        `  generated:   ${want[at] ?? '(end of the section)'}\n` +
        'Run `npm run docs:generate` (the test with OB_UPDATE_DOCS=1) to rewrite it.'
      )
    },
  }
}
