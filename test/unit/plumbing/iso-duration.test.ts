import { describe, expect, it } from 'vitest'
import { isoDurationSeconds } from '../../../src-main/plumbing/iso-duration.ts'

describe('isoDurationSeconds', () => {
  it.each([
    ['P1D', 86400],
    ['PT36H', 129600],
    ['P1DT2H30M', 95400],
    ['PT90S', 90],
    ['PT0.5S', 0.5],
    ['P2W', 1209600],
  ])('%s is %d seconds', (text, seconds) => {
    expect(isoDurationSeconds(text)).toBe(seconds)
  })

  it.each(['P', 'PT', 'P1Y', 'P1M', '1D', 'P1DT', '-P1D', 'P1.5D'])('%s is not accepted', (text) => {
    expect(isoDurationSeconds(text)).toBeUndefined()
  })
})
