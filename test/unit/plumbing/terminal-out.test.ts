import { afterEach, describe, expect, it } from 'vitest'
import {
  redirectTerminal,
  writeErr,
  writeErrLine,
  writeJsonErr,
  writeJsonOut,
  writeOut,
  type TerminalStream,
} from '../../../src-main/plumbing/terminal-out.ts'

// eslint-disable-next-line no-control-regex -- the characters under test
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/

function sink(): TerminalStream & { text: string } {
  const s = {
    text: '',
    write(t: string) {
      s.text += t
      return true
    },
  }
  return s
}

let restore: (() => void) | undefined
afterEach(() => restore?.())

describe('the terminal writers', () => {
  it('write text with control characters escaped on stdout and stderr', () => {
    const out = sink()
    const err = sink()
    restore = redirectTerminal({ out, err })
    writeOut('status \x1b[2J\x1b[31mACSC\n')
    writeErr('cause: \x9b31m\x00\n')
    writeErrLine('local sandbox: \x07bell')
    expect(out.text).toBe('status \\x1b[2J\\x1b[31mACSC\n')
    expect(err.text).toBe('cause: \\x9b31m\\x00\nlocal sandbox: \\x07bell\n')
  })

  it('write JSON lines that stay valid JSON with C1 escaped', () => {
    const out = sink()
    const err = sink()
    restore = redirectTerminal({ out, err })
    writeJsonOut({ status: '\x9bACSC\x1b' })
    writeJsonErr({ msg: 'x'.repeat(5000) })
    expect(out.text).not.toMatch(RAW_CONTROL)
    expect(JSON.parse(out.text)).toEqual({ status: '\x9bACSC\x1b' })
    expect(out.text).toBe('{"status":"\\u009bACSC\\u001b"}\n')
    expect((JSON.parse(err.text) as { msg: string }).msg).toMatch(/… \(3000 more characters\)$/)
  })

  it('ignore a stream that fails: a closed pipe neither throws nor stops the next writes', () => {
    const listeners: Array<(e: Error) => void> = []
    const broken: TerminalStream = {
      write() {
        throw Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })
      },
      on(_event, listener) {
        listeners.push(listener)
      },
    }
    const err = sink()
    restore = redirectTerminal({ out: broken, err })
    expect(() => writeOut('line 1\n')).not.toThrow()
    expect(() => writeJsonOut({ a: 1 })).not.toThrow()
    // An asynchronous EPIPE arrives as an 'error' event: a listener is there to take it.
    expect(listeners).toHaveLength(1)
    expect(() => listeners[0]!(new Error('EPIPE'))).not.toThrow()
    writeErr('still writing\n')
    expect(err.text).toBe('still writing\n')
  })
})
