import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  backupPath,
  readFileWithBackup,
  removeWithBackup,
  writeFileAtomic,
} from '../../../src-main/plumbing/atomic-file.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))
function dir(): string {
  const d = mkdtempSync(join(tmpdir(), 'atomic-'))
  dirs.push(d)
  return d
}
const parseJson = (b: Buffer) => JSON.parse(b.toString('utf8')) as unknown

describe('atomic file writes', () => {
  it('replaces the file whole, keeps the previous version as the backup, leaves no temporary file', () => {
    const file = join(dir(), 'sub', 'identities.json')
    writeFileAtomic(file, '{"v":1}')
    expect(existsSync(backupPath(file))).toBe(false)
    writeFileAtomic(file, '{"v":2}')
    writeFileAtomic(file, Buffer.from('{"v":3}'))
    expect(readFileSync(file, 'utf8')).toBe('{"v":3}')
    expect(readFileSync(backupPath(file), 'utf8')).toBe('{"v":2}')
    expect(readdirSync(join(file, '..')).sort()).toEqual(['identities.json', 'identities.json.bak'])
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600)
  })

  it('reads the backup when the file is damaged or missing, and says which it read', () => {
    const file = join(dir(), 'doc.json')
    expect(readFileWithBackup(file, parseJson)).toBeUndefined()
    writeFileAtomic(file, '{"v":1}')
    writeFileAtomic(file, '{"v":2}')
    expect(readFileWithBackup(file, parseJson)).toEqual({ value: { v: 2 }, from: 'file' })
    writeFileSync(file, '{"v":')
    expect(readFileWithBackup(file, parseJson)).toEqual({ value: { v: 1 }, from: 'backup' })
    rmSync(file)
    expect(readFileWithBackup(file, parseJson)).toEqual({ value: { v: 1 }, from: 'backup' })
    writeFileSync(file, 'x')
    writeFileSync(backupPath(file), 'y')
    expect(() => readFileWithBackup(file, parseJson)).toThrow(SyntaxError)
  })

  it('removes a file with its backup', () => {
    const file = join(dir(), 'k.secret')
    writeFileAtomic(file, 'a')
    writeFileAtomic(file, 'b')
    expect(removeWithBackup(file)).toBe(true)
    expect(existsSync(file) || existsSync(backupPath(file))).toBe(false)
    expect(removeWithBackup(file)).toBe(false)
  })
})
