import { describe, expect, it } from 'vitest'
import { SseParser } from '../../../../src-renderer/api/sse-parser.ts'

describe('SseParser', () => {
  it('parses named events, skips comments, defaults the event name', () => {
    const p = new SseParser()
    const out = p.push(': connected\n\nevent: flows.onDidProgress\ndata: {"a":1}\n\ndata: plain\n\n')
    expect(out).toEqual([
      { event: 'flows.onDidProgress', data: '{"a":1}' },
      { event: 'message', data: 'plain' },
    ])
  })

  it('joins frames split across chunks, including a \\r\\n split in the middle', () => {
    const p = new SseParser()
    expect(p.push('event: x\r')).toEqual([])
    expect(p.push('\ndata: {"b"')).toEqual([])
    // A lone \r ends a line in SSE, so the frame may complete before the \n that follows it; either
    // way it arrives once, whole, and the \n starts nothing new.
    const out = [...p.push(':2}\r\n\r'), ...p.push('\n')]
    expect(out).toEqual([{ event: 'x', data: '{"b":2}' }])
    expect(p.push('data: next\n\n')).toEqual([{ event: 'message', data: 'next' }])
  })

  it('joins multi-line data with newlines and ignores frames without data', () => {
    const p = new SseParser()
    expect(p.push('event: only-name\n\ndata: a\ndata: b\n\n')).toEqual([{ event: 'message', data: 'a\nb' }])
  })
})
