/**
 * Every sh block of README.md and docs/ marked runnable (`<!-- runnable -->` on the line before the fence) is run
 * as written, in a new folder where `ob-console` and `npx ob-console` are the built bin (a TPP's project after
 * `npm install ob-console`), with the console's and the sandbox's data in that folder: a command, flag or output
 * the docs show that the console no longer has fails `npm test`.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO, runInTppProject } from './support/tpp-project.ts'

const MARKER = '<!-- runnable -->'

interface Example {
  doc: string
  line: number
  script: string
}

function docs(): string[] {
  const found = [join(REPO, 'README.md')]
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name))
      else if (e.name.endsWith('.md')) found.push(join(dir, e.name))
    }
  }
  walk(join(REPO, 'docs'))
  return found
}

/** The marked sh blocks of every doc, with the line of their fence. */
function runnableExamples(): Example[] {
  const out: Example[] = []
  for (const file of docs()) {
    const lines = readFileSync(file, 'utf8').split('\n')
    lines.forEach((l, i) => {
      if (l.trim() !== MARKER) return
      if (lines[i + 1] !== '```sh')
        throw new Error(`${relative(REPO, file)}:${i + 1}: ${MARKER} must precede a sh block`)
      const end = lines.findIndex((x, j) => j > i + 1 && x === '```')
      out.push({ doc: relative(REPO, file), line: i + 2, script: lines.slice(i + 2, end).join('\n') })
    })
  }
  return out
}

const EXAMPLES = runnableExamples()

describe('the runnable examples of the docs run as written', () => {
  it('the docs mark some', () => {
    expect(EXAMPLES.map((e) => e.doc)).toEqual(expect.arrayContaining(['README.md', 'docs/console.md']))
  })

  it.each(EXAMPLES.map((e) => ({ ...e, at: `${e.doc}:${e.line}` })))(
    '$at',
    (e) => {
      const run = runInTppProject(
        [
          'set -euo pipefail',
          'export PATH="$PWD/node_modules/.bin:$PATH" HOME="$PWD/home"',
          'export OB_CONSOLE_DATA_DIR="$PWD/.console" OB_CONSOLE_SANDBOX_DIR="$PWD/.sandbox" TMPDIR="$RUNNER_TEMP"',
          'export npm_config_cache="$PWD/home/.npm" npm_config_offline=true npm_config_update_notifier=false',
          e.script,
        ].join('\n'),
        80_000,
      )
      try {
        const r = run.result
        expect(
          r.status,
          `${e.at} exited ${r.status}${r.signal ? ` (${r.signal})` : ''}\nstdout: ${r.stdout?.slice(-1500)}\nstderr: ${r.stderr?.slice(-3000)}`,
        ).toBe(0)
        expect(r.stderr ?? '').not.toMatch(/\n\s+at [\w.<>]+ \(/)
      } finally {
        run.remove()
      }
    },
    90_000,
  )
})
