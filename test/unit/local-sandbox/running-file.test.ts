import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { dataDirLayout } from '../../../src-main/local-sandbox/data-dir.ts'
import { addressesForPort, announceRunning, runningSandbox } from '../../../src-main/local-sandbox/running-file.ts'

const dirs: string[] = []
function layout() {
  const dir = mkdtempSync(join(tmpdir(), 'ob-running-'))
  dirs.push(dir)
  return dataDirLayout(dir)
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('running-file', () => {
  it('gives the three origins on consecutive ports', () => {
    expect(addressesForPort(9443)).toEqual({
      baseUrl: 'https://127.0.0.1:9443',
      authUrl: 'https://127.0.0.1:9444',
      directoryUrl: 'https://127.0.0.1:9445',
    })
  })

  it('finds the sandbox this process announced, and nothing once the announcement is withdrawn', () => {
    const l = layout()
    expect(runningSandbox(l)).toBeUndefined()
    const withdraw = announceRunning(l, addressesForPort(9443))
    expect(runningSandbox(l)).toEqual({ ...addressesForPort(9443), pid: process.pid })
    withdraw()
    expect(existsSync(join(l.state, 'running.json'))).toBe(false)
    expect(runningSandbox(l)).toBeUndefined()
  })

  it('ignores a record that is incomplete, corrupt, or left by a process that is gone', () => {
    const l = layout()
    const file = join(l.state, 'running.json')
    writeFileSync(file, JSON.stringify({ baseUrl: 'https://127.0.0.1:1', pid: process.pid }))
    expect(runningSandbox(l)).toBeUndefined()
    writeFileSync(file, '{not json')
    expect(runningSandbox(l)).toBeUndefined()
    // Process ids are at most 2^22 on Linux; this one runs nothing.
    writeFileSync(file, JSON.stringify({ ...addressesForPort(9443), pid: 2 ** 22 + 1 }))
    expect(runningSandbox(l)).toBeUndefined()
  })
})
