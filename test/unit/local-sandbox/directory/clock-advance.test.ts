import { describe, expect, it } from 'vitest'
import { MAX_ADVANCE_SECONDS, parseClockAdvance } from '../../../../src-main/local-sandbox/directory/clock-advance.ts'

const fail = (message: string) => new Error(message)

describe('parseClockAdvance', () => {
  it('reads advanceSeconds or an ISO duration', () => {
    expect(parseClockAdvance({ advanceSeconds: 3600 }, fail)).toBe(3600)
    expect(parseClockAdvance({ advanceSeconds: 0 }, fail)).toBe(0)
    expect(parseClockAdvance({ advance: 'P1D' }, fail)).toBe(86400)
  })

  it.each([
    [{ advanceSeconds: -1 }, /negative \(-1\): the sandbox clock only moves forward/],
    [{ advance: '-P1D' }, /negative \(-P1D\): the sandbox clock only moves forward/],
    [{ advanceSeconds: '60' }, /advanceSeconds must be a number of seconds, got "60"/],
    [{ advance: 'P1Y' }, /not an ISO 8601 duration.*years and months are not accepted/],
    [{ advance: 5 }, /advance must be an ISO 8601 duration string/],
    [{ advanceSeconds: 1, advance: 'P1D' }, /not both/],
    [{}, /nothing to do/],
    [{ seconds: 5 }, /unknown field "seconds"/],
    [[], /must be a JSON object/],
    [{ advanceSeconds: MAX_ADVANCE_SECONDS + 1 }, /more than ten years/],
  ])('refuses %j', (body, message) => {
    expect(() => parseClockAdvance(body, fail)).toThrow(message)
  })
})
