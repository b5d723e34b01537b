import { describe, expect, it } from 'vitest'
import {
  TERMINAL_LINE_LIMIT,
  terminalJson,
  terminalLine,
  terminalText,
} from '../../../src-main/plumbing/terminal-text.ts'

/** Every control byte a terminal may act on: C0 but tab and newline, DEL, C1. */
// eslint-disable-next-line no-control-regex -- the characters under test
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/

/** Every C0, DEL and C1 character, one of each. */
const ALL_CONTROLS = Array.from({ length: 0xa0 }, (_, i) => i)
  .filter((i) => i < 0x20 || i >= 0x7f)
  .map((i) => String.fromCharCode(i))
  .join('')

describe('terminalLine: one value or line', () => {
  it('shows every C0, DEL and C1 control escaped (newline and carriage return too), tab kept', () => {
    const shown = terminalLine(`a${ALL_CONTROLS}z`)
    expect(shown).not.toMatch(RAW_CONTROL)
    expect(shown).not.toContain('\n')
    expect(shown).toContain('\t')
    expect(shown).toContain('\\x00')
    expect(shown).toContain('\\x0a')
    expect(shown).toContain('\\x1b')
    expect(shown).toContain('\\x7f')
    expect(shown).toContain('\\x9b')
    expect(shown.startsWith('a\\x00\\x01')).toBe(true)
  })

  it('shows the screen-clearing sequence of a hostile ErrorCode as text', () => {
    expect(terminalLine('\x1b[2J\x1b[31mUK.OBIE.Field.Invalid')).toBe('\\x1b[2J\\x1b[31mUK.OBIE.Field.Invalid')
    expect(terminalLine('\x1b]52;c;aGk=\x07')).toBe('\\x1b]52;c;aGk=\\x07')
  })

  it('shows lone surrogates escaped and keeps pairs (emoji) and other text as they are', () => {
    expect(terminalLine('a\ud800b\udc00c')).toBe('a\\ud800b\\udc00c')
    expect(terminalLine('£ ✓ 😀 café')).toBe('£ ✓ 😀 café')
  })

  it('cuts a long value with an ellipsis that says how much was left out', () => {
    const shown = terminalLine('x'.repeat(TERMINAL_LINE_LIMIT + 500))
    expect(shown).toBe(`${'x'.repeat(TERMINAL_LINE_LIMIT)}… (500 more characters)`)
    expect(terminalLine('x'.repeat(TERMINAL_LINE_LIMIT))).toBe('x'.repeat(TERMINAL_LINE_LIMIT))
    expect(terminalLine('abcdef', 3)).toBe('abc… (3 more characters)')
  })

  it('never splits a surrogate pair at the cut', () => {
    expect(terminalLine('ab😀cd', 3)).toBe('ab… (4 more characters)')
  })
})

describe('terminalText: lines as a writer prints them', () => {
  it('keeps the newlines between lines and escapes the rest', () => {
    expect(terminalText('✗ Consent\n    cause: \x9b2J\r\n')).toBe('✗ Consent\n    cause: \\x9b2J\\x0d\n')
    expect(terminalText(`x${ALL_CONTROLS}`)).not.toMatch(RAW_CONTROL)
  })

  it('cuts each line on its own', () => {
    const text = terminalText(`${'a'.repeat(10)}\nshort`, 4)
    expect(text).toBe('aaaa… (6 more characters)\nshor… (1 more characters)')
  })
})

describe('terminalJson: JSON lines on a terminal', () => {
  it('escapes DEL, C1 and U+2028/U+2029 as JSON escapes and still parses to the same value', () => {
    const value = { code: '\x1b[2J', msg: `${ALL_CONTROLS}\u2028\u2029\ud800`, n: 1 }
    const json = terminalJson(value)
    expect(json).not.toMatch(RAW_CONTROL)
    expect(json).not.toMatch(/[\u2028\u2029]/)
    expect(json).toContain('\\u001b[2J')
    expect(json).toContain('\\u009b')
    expect(json).toContain('\\u2028')
    expect(JSON.parse(json)).toEqual(value)
  })

  it('indents when asked, and cuts long strings only when asked (log entries)', () => {
    expect(terminalJson({ a: '\u0085' }, 2)).toBe('{\n  "a": "\\u0085"\n}')
    const long = { s: 'y'.repeat(30) }
    expect(JSON.parse(terminalJson(long))).toEqual(long)
    expect(JSON.parse(terminalJson(long, undefined, 10))).toEqual({ s: `${'y'.repeat(10)}… (20 more characters)` })
  })
})
