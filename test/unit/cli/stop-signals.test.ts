import { afterEach, describe, expect, it } from 'vitest'
import { onStopSignals } from '../../../src-main/cli/stop-signals.ts'

const offs: Array<() => void> = []
afterEach(() => offs.splice(0).forEach((off) => off()))

function install(cleanup: () => Promise<void>, graceMs?: number) {
  const notes: string[] = []
  const exits: number[] = []
  let exited!: () => void
  const exitedOnce = new Promise<void>((r) => (exited = r))
  offs.push(
    onStopSignals(cleanup, {
      note: (l) => notes.push(l),
      exit: (code) => {
        exits.push(code)
        exited()
      },
      ...(graceMs !== undefined ? { graceMs } : {}),
    }),
  )
  return { notes, exits, exitedOnce }
}

describe('onStopSignals', () => {
  it('SIGINT: cleans up once, then exits 130', async () => {
    const order: string[] = []
    const { notes, exits, exitedOnce } = install(async () => {
      order.push('cleanup')
    })
    process.emit('SIGINT')
    await exitedOnce
    expect(order).toEqual(['cleanup'])
    expect(exits).toEqual([130])
    expect(notes).toEqual(['ob-console: stopped by SIGINT; cleaning up.'])
  })

  it('SIGTERM exits 143; a second signal during the clean-up exits at once', async () => {
    let finish!: () => void
    const { exits } = install(() => new Promise<void>((r) => (finish = r)))
    process.emit('SIGTERM')
    expect(exits).toEqual([])
    process.emit('SIGTERM')
    expect(exits).toEqual([143])
    finish()
  })

  it('a clean-up that never ends is cut off after the grace time', async () => {
    const { notes, exits, exitedOnce } = install(() => new Promise<void>(() => undefined), 20)
    process.emit('SIGINT')
    await exitedOnce
    expect(exits).toEqual([130])
    expect(notes.at(-1)).toBe('ob-console: the clean-up took over 20 ms; exiting without it.')
  })

  it('a failed clean-up is said, and the process still exits', async () => {
    const { notes, exits, exitedOnce } = install(() => Promise.reject(new Error('EBUSY: the folder is in use')))
    process.emit('SIGTERM')
    await exitedOnce
    expect(exits).toEqual([143])
    expect(notes).toContain('ob-console: the clean-up failed: EBUSY: the folder is in use')
  })

  it('SIGHUP (the terminal closed) exits 129 after the clean-up', async () => {
    let cleaned = false
    const { exits, exitedOnce } = install(async () => {
      cleaned = true
    })
    process.emit('SIGHUP')
    await exitedOnce
    expect({ cleaned, exits }).toEqual({ cleaned: true, exits: [129] })
  })

  it('removes its handlers when the command ends', () => {
    const before = process.listenerCount('SIGINT')
    const off = onStopSignals(async () => undefined, { note: () => undefined, exit: () => undefined })
    expect(process.listenerCount('SIGINT')).toBe(before + 1)
    expect(process.listenerCount('SIGTERM')).toBeGreaterThan(0)
    off()
    expect(process.listenerCount('SIGINT')).toBe(before)
  })
})
