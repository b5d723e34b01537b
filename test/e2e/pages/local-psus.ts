import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from '../fixtures.ts'

interface PsusFile {
  psus: Array<{
    username: string
    password: string
    name: string
    accounts: Array<{ accountId: string; accountTypeCode: string; nickname: string }>
  }>
}

/** The local sandbox's test PSUs (resources/local-sandbox/psus.json). */
export function localPsu(username: string): PsusFile['psus'][number] {
  const file = JSON.parse(readFileSync(join(ROOT, 'resources/local-sandbox/psus.json'), 'utf8')) as PsusFile
  const psu = file.psus.find((p) => p.username === username)
  if (!psu) throw new Error(`no test PSU "${username}" in psus.json`)
  return psu
}
