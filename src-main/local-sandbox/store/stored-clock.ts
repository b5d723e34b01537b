import { join } from 'node:path'
import { dataDirLayout } from '../data-dir.ts'
import { JsonFile } from './json-file.ts'

/**
 * The clock offset (ms) an embedded store keeps in `dataDir` (`state/clock.json`, written by the store when
 * the clock moves), read without starting the sandbox: the console counts its consents' days on it. 0 when
 * the sandbox never moved its clock there.
 */
export function storedClockOffsetMs(dataDir: string): number {
  const offset = new JsonFile(join(dataDirLayout(dataDir).state, 'clock.json'), () => ({ offsetMs: 0 })).read().offsetMs
  return typeof offset === 'number' && Number.isFinite(offset) && offset > 0 ? offset : 0
}
