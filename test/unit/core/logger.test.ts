import { describe, expect, it } from 'vitest'
import { AppError } from '../../../src-main/core/app-error.ts'
import { createLogger, type LogEntry } from '../../../src-main/core/logger.ts'

function capture(level: 'debug' | 'info' = 'debug') {
  const entries: LogEntry[] = []
  const log = createLogger({ level, sink: (e) => entries.push(e), now: () => new Date('2026-01-01T00:00:00Z') })
  return { log, entries }
}

describe('logger', () => {
  it('never writes secrets, whether in the message, fields or nested values', () => {
    const { log, entries } = capture()
    log.info('sent Authorization: Bearer tok-123', {
      headers: { authorization: 'Basic Y2xpZW50OnNlY3JldA==' },
      body: 'grant_type=client_credentials&client_assertion=eyJhbGciOiJQUzI1NiJ9.eyJpc3MiOiJ4In0.c2lnbmF0dXJlLWJ5dGVzLXRoYXQtYXJlLWxvbmc',
      form: { client_secret: 'shh', url: 'https://tpp/cb?code=auth-code-1' },
      key: '-----BEGIN PRIVATE' + ' KEY-----\nMIIEvQ\n-----END PRIVATE KEY-----',
    })
    const line = JSON.stringify(entries)
    for (const secret of ['tok-123', 'Y2xpZW50OnNlY3JldA==', 'c2lnbmF0dXJl', 'shh', 'auth-code-1', 'MIIEvQ'])
      expect(line).not.toContain(secret)
    expect(entries[0]).toMatchObject({
      level: 'info',
      time: '2026-01-01T00:00:00.000Z',
      msg: 'sent Authorization: Bearer ••••••••',
    })
  })

  it('drops entries below its level and adds child bindings', () => {
    const { log, entries } = capture('info')
    log.debug('hidden')
    log.child({ layer: 'http' }).warn('shown', { n: 1 })
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({ level: 'warn', msg: 'shown', layer: 'http', n: 1 })
  })

  it('serialises errors with their code and sentences', () => {
    const { log, entries } = capture()
    log.error('failed', { err: new AppError('TIMEOUT', { what: 'w', cause: 'c', fix: 'f' }), plain: new Error('boom') })
    expect(entries[0]!.err).toEqual({ code: 'TIMEOUT', what: 'w', cause: 'c', fix: 'f' })
    expect((entries[0]!.plain as { message: string }).message).toBe('boom')
  })
})

describe('logger: the default sink on a terminal', () => {
  it('writes one valid JSON line per entry on stderr with every control character escaped (C1 too)', async () => {
    const { redirectTerminal } = await import('../../../src-main/plumbing/terminal-out.ts')
    let err = ''
    const restore = redirectTerminal({ out: { write: () => true }, err: { write: (t: string) => (err += t) } })
    try {
      createLogger({ level: 'info' }).warn('bank said \x1b[2J\x1b[31m', {
        code: '\u009b31m\u0000',
        long: 'z'.repeat(3000),
      })
    } finally {
      restore()
    }
    // eslint-disable-next-line no-control-regex -- asserting their absence
    expect(err).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/)
    expect(err).toContain('\\u001b[2J')
    expect(err).toContain('\\u009b31m')
    const entry = JSON.parse(err) as { msg: string; code: string; long: string }
    expect(entry.msg).toBe('bank said \x1b[2J\x1b[31m')
    expect(entry.code).toBe('\u009b31m\u0000')
    expect(entry.long).toMatch(/^z{2000}… \(1000 more characters\)$/)
  })
})
