import { describe, expect, it } from 'vitest'
import { encodingRules, linksRules, transactionsPageRules } from '../../../src-main/conformance/bank-rules.ts'

const BASE = 'https://bank.example:8443'

describe('linksRules', () => {
  it('flags an answer with Data and no Links, or no Links.Self', () => {
    expect(linksRules({ Data: {} }, BASE)).toEqual([expect.objectContaining({ rule: 'bank.links', path: 'Links' })])
    expect(linksRules({ Data: {}, Links: null }, BASE)).toEqual([
      expect.objectContaining({ rule: 'bank.links', value: 'null' }),
    ])
    expect(linksRules({ Data: {}, Links: { First: `${BASE}/a` } }, BASE)).toEqual([
      expect.objectContaining({ rule: 'bank.links', path: 'Links.Self' }),
    ])
  })

  it('flags every Links member off {base_url}, on any answer', () => {
    const v = linksRules({ Data: {}, Links: { Self: 'https://evil.example/x', Last: `${BASE}/y` } }, BASE)
    expect(v).toEqual([expect.objectContaining({ rule: 'bank.links-origin', path: 'Links.Self' })])
    expect(linksRules({ Data: {}, Links: { Self: `${BASE}/x` } }, BASE)).toEqual([])
  })

  it('judges no body without Data (an error body)', () => {
    expect(linksRules({ Code: '400', Errors: [] }, BASE)).toEqual([])
    expect(linksRules('text', BASE)).toEqual([])
  })

  it('is no longer doubled by the transactions page rules', () => {
    const page = { Data: { Transaction: [] }, Links: { Self: 'https://evil.example/x' }, Meta: { TotalPages: 1 } }
    expect(transactionsPageRules(page, `${BASE}/t`).filter((v) => v.rule === 'bank.links-origin')).toEqual([])
  })
})

describe('encodingRules', () => {
  it('flags a Content-Type sent twice, with both values', () => {
    const v = encodingRules(
      [
        ['content-type', 'application/json'],
        ['Content-Type', 'text/plain'],
      ],
      undefined,
    )
    expect(v).toEqual([
      expect.objectContaining({
        rule: 'bank.single-header',
        path: 'header content-type',
        value: 'application/json | text/plain',
      }),
    ])
  })

  it('flags a body that is not UTF-8, at the first bad byte, and not a real U+FFFD', () => {
    const bytes = Buffer.concat([Buffer.from('{"a":"\uFFFD","b":"x'), Buffer.from([0xff]), Buffer.from('"}')])
    const v = encodingRules([['content-type', 'application/json']], new Uint8Array(bytes))
    expect(v).toEqual([expect.objectContaining({ rule: 'bank.utf8' })])
    expect(v[0]!.message).toMatch(new RegExp(`byte 0xff at offset ${bytes.indexOf(0xff)}\\).*U\\+FFFD`))
    expect(encodingRules([], new Uint8Array(Buffer.from('{"a":"é \uFFFD"}')))).toEqual([])
  })
})
