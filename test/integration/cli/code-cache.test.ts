/**
 * V8's code cache of the built command line's commands (`bin/ob-console.js` → out/cli/main.js →
 * out/cli/commands.cjs, `src-main/cli/built-main.ts`): written by a command's first run that exits 0, read by
 * the next (which then leaves it as it is), made anew when it does not fit, never written by a failed run, by
 * `help`, or with NODE_DISABLE_COMPILE_CACHE=1. Each test has its own cache folder (XDG_CACHE_HOME).
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { REPO, runCli } from './support/run-cli.ts'

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url')
const TOKEN = `${b64({ alg: 'PS256', typ: 'JWT' })}.${b64({ iss: 'https://bank.example', exp: 2_000_000_000 })}.c2ln`

describe('the code cache of the built commands', () => {
  let home: string
  let cacheFile: string
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'ob-cli-cache-'))
    cacheFile = join(home, 'ob-console', 'code-cache', 'commands-jwt-decode.v8cache')
  })
  afterEach(() => rmSync(home, { recursive: true, force: true }))

  // The cache on, whatever the environment the tests run in says (an undefined variable is not passed on).
  const on = (env: Record<string, string> = {}) => ({
    XDG_CACHE_HOME: home,
    NODE_DISABLE_COMPILE_CACHE: undefined,
    ...env,
  })
  const decode = (env: Record<string, string> = {}) => runCli(['jwt', 'decode', TOKEN, '--json'], { env: on(env) })
  const written = () => {
    const s = statSync(cacheFile)
    return { ino: s.ino, mtimeMs: s.mtimeMs, size: s.size }
  }

  it("is written by a command's first run and read, not rewritten, by the next, whose answer is the same", async () => {
    const first = await decode()
    expect(first.code).toBe(0)
    const bytes = readFileSync(cacheFile)
    const header = JSON.parse(bytes.subarray(0, bytes.indexOf(0x0a)).toString('utf8')) as Record<string, unknown>
    const bundle = statSync(join(REPO, 'out', 'cli', 'commands.cjs'))
    expect(header).toEqual({ v8: process.versions.v8, size: bundle.size, mtimeMs: bundle.mtimeMs })
    // Made at the end of the run: it holds the functions the run compiled, not only the file's top level.
    expect(bytes.length).toBeGreaterThan(200_000)
    const before = written()

    const second = await decode()
    expect(second.code).toBe(0)
    expect(second.stdout).toBe(first.stdout)
    expect(JSON.parse(second.stdout).claims).toEqual({ iss: 'https://bank.example', exp: 2_000_000_000 })
    expect(written()).toEqual(before)
  })

  it('is made anew when V8 refuses it (cut short) or it was made from another build, the answer unchanged', async () => {
    const first = await decode()
    const whole = readFileSync(cacheFile)
    const eol = whole.indexOf(0x0a)

    writeFileSync(cacheFile, whole.subarray(0, eol + 1 + 1000))
    const cut = await decode()
    expect(cut.stdout).toBe(first.stdout)
    expect(readFileSync(cacheFile).length).toBeGreaterThan(200_000)

    const header = JSON.parse(whole.subarray(0, eol).toString('utf8')) as { size: number }
    writeFileSync(
      cacheFile,
      Buffer.concat([
        Buffer.from(`${JSON.stringify({ ...header, size: header.size + 1 })}\n`),
        whole.subarray(eol + 1),
      ]),
    )
    const other = await decode()
    expect(other.stdout).toBe(first.stdout)
    expect(readFileSync(cacheFile).subarray(0, eol).toString('utf8')).toBe(whole.subarray(0, eol).toString('utf8'))
  })

  it('is not written by a run that fails, by help, or with NODE_DISABLE_COMPILE_CACHE=1', async () => {
    const failed = await runCli(['jwt', 'decode'], { env: on() })
    expect(failed.code).toBe(2)
    expect((await runCli(['help'], { env: on() })).code).toBe(0)
    expect((await runCli(['ais', '--help'], { env: on() })).code).toBe(0)
    const dir = join(home, 'ob-console', 'code-cache')
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([])

    const off = await decode({ NODE_DISABLE_COMPILE_CACHE: '1' })
    expect(off.code).toBe(0)
    expect(existsSync(join(home, 'ob-console'))).toBe(false)
  })
})
