/** ISO 8601 durations as the command line and the sandbox's admin clock take them. */
const DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/

/**
 * Seconds in an ISO 8601 duration made of weeks, days, hours, minutes and seconds (`P1D`, `PT36H`,
 * `P1DT2H30M`). Years and months are refused: their length depends on the date. Undefined when the
 * text is not such a duration.
 */
export function isoDurationSeconds(text: string): number | undefined {
  const m = DURATION.exec(text)
  if (!m || text === 'P' || text.endsWith('T')) return undefined
  const [w, d, h, min, s] = m.slice(1).map((v) => (v === undefined ? 0 : Number(v)))
  return w! * 604800 + d! * 86400 + h! * 3600 + min! * 60 + s!
}
