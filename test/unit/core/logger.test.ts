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
