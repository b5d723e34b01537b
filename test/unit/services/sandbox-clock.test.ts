/** The sandbox clock's requests to the local directory are marked as the console's own. */
import { describe, expect, it } from 'vitest'
import { SandboxClockService } from '../../../src-main/services/sandbox-clock.ts'
import { localEnvironments, recordingEngine } from './support/recording-engine.ts'

describe('SandboxClockService', () => {
  it("reads and moves the clock through requests marked as the console's own (byConsole)", async () => {
    const clock = { now: '2026-01-01T00:00:00.000Z', offsetSeconds: 3600 }
    const { engine, sent } = recordingEngine({ status: 200, text: JSON.stringify(clock), json: clock })
    const service = new SandboxClockService(localEnvironments(), engine)
    await expect(service.get()).resolves.toEqual(clock)
    await expect(service.move({ hours: 1 })).resolves.toEqual(clock)
    expect(sent.map((s) => [s.request.method, s.request.url, s.meta])).toEqual([
      ['GET', 'https://127.0.0.1:4000/admin/clock', { byConsole: true }],
      ['POST', 'https://127.0.0.1:4000/admin/clock', { byConsole: true }],
    ])
  })
})
