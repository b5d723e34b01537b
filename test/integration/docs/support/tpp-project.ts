/**
 * For the tests that run a CI block of the docs as written: a TPP's project after `npm install ob-console`
 * (the bin linked in node_modules/.bin, nothing else), a runner temp folder, and the sh block of a section.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export const REPO = resolve(import.meta.dirname, '../../../..')

/** The first sh block after `heading` (a whole line, e.g. `## In CI`) in a doc of the repository. */
export function shBlockAfter(doc: string, heading: string): string {
  const text = readFileSync(join(REPO, doc), 'utf8')
  const at = text.indexOf(`\n${heading}\n`)
  const block = at < 0 ? null : /```sh\n([\s\S]*?)```/.exec(text.slice(at))
  if (!block) throw new Error(`${doc} has no "${heading}" section with an sh block`)
  return block[1]!
}

export interface ProjectRun {
  result: SpawnSyncReturns<string>
  /** The project folder (the script's working directory). */
  project: string
  /** `$RUNNER_TEMP` of the run, inside the project. */
  runnerTemp: string
  /** Removes the project and all in it. */
  remove(): void
}

/** Runs `script` with bash in a new TPP project, `RUNNER_TEMP` set, bounded by `timeoutMs`. */
export function runInTppProject(script: string, timeoutMs: number): ProjectRun {
  const project = mkdtempSync(join(tmpdir(), 'ob-ci-project-'))
  mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true })
  symlinkSync(join(REPO, 'bin', 'ob-console.js'), join(project, 'node_modules', '.bin', 'ob-console'))
  const runnerTemp = join(project, 'runner-temp')
  mkdirSync(runnerTemp)
  const result = spawnSync('bash', ['-c', script], {
    cwd: project,
    env: { ...process.env, RUNNER_TEMP: runnerTemp },
    encoding: 'utf8',
    timeout: timeoutMs,
  })
  return { result, project, runnerTemp, remove: () => rmSync(project, { recursive: true, force: true }) }
}
