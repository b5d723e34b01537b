import { fork } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildJourneyWorker } from '../../../bench/journey/build-worker.ts'
import type { FromWorker } from '../../../bench/journey/worker.ts'

describe("the P1 journey workers' bundle", () => {
  it('is built as the command line is, with the lens worker beside it, and starts without the TypeScript runner', async () => {
    const file = await buildJourneyWorker()
    expect(file).toMatch(/out[/\\]bench-journey[/\\]journey-worker\.js$/)
    // The lens finds its worker thread beside the chunk that starts it, as in out/cli.
    expect(existsSync(join(dirname(file), 'conformance-worker.js'))).toBe(true)
    // No name-keeping wrapper at each function made (tsx's `__name`): the code as a user's command runs it.
    expect(readFileSync(file, 'utf8')).not.toContain('__name(')

    const child = fork(file, ['engine'], { execArgv: [], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] })
    let stderr = ''
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    const first = new Promise<FromWorker>((resolve) => child.once('message', resolve))
    child.send({
      type: 'init',
      target: { baseUrl: 'https://127.0.0.1:1', authUrl: 'https://127.0.0.1:2', directoryUrl: 'https://127.0.0.1:3' },
    })
    expect(await first).toEqual({ type: 'ready' })
    child.send({ type: 'close' })
    expect(await exited).toBe(0)
    expect(stderr).toBe('')
  }, 60_000)
})
