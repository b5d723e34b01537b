import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { FileBankDocuments } from '../../../../src-main/local-sandbox/store/bank-documents.ts'
import { bankDocumentsContract } from './bank-documents-contract.ts'

const roots: string[] = []
const newRoot = () => {
  const root = mkdtempSync(join(tmpdir(), 'ob-bank-docs-'))
  roots.push(root)
  return root
}
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })))

bankDocumentsContract('embedded: the data directory', async () => {
  const root = newRoot()
  return { docs: new FileBankDocuments(root), another: async () => new FileBankDocuments(root) }
})

describe('embedded bank documents: the data directory files as the sandbox always wrote them', () => {
  it('writes each document at its data-directory path: keys and records mode 0600, certificates 0644', async () => {
    const root = newRoot()
    const docs = new FileBankDocuments(root)
    await docs.write('pki/root-ca.key', 'KEY', { secret: true })
    await docs.write('pki/root-ca.pem', 'CERT')
    await docs.write('auth/signing-key.json', '{}', { secret: true })
    await docs.write('directory/tpps/sw1.json', '{}')
    const mode = (p: string) => statSync(join(root, p)).mode & 0o777
    expect(mode('pki/root-ca.key')).toBe(0o600)
    expect(mode('pki/root-ca.pem')).toBe(0o644)
    expect(mode('auth/signing-key.json')).toBe(0o600)
    expect(mode('directory/tpps/sw1.json')).toBe(0o600)
    expect(mode('directory/tpps')).toBe(0o700)
  })

  it('replaces a file by rename (no temporary file left behind) and lists only documents, not temporary files', async () => {
    const root = newRoot()
    const docs = new FileBankDocuments(root)
    await docs.write('directory/tpps/sw1.json', 'one')
    const before = statSync(join(root, 'directory/tpps/sw1.json')).ino
    await docs.write('directory/tpps/sw1.json', 'two')
    expect(statSync(join(root, 'directory/tpps/sw1.json')).ino).not.toBe(before)
    expect(readdirSync(join(root, 'directory/tpps'))).toEqual(['sw1.json'])
    await import('node:fs').then((fs) => fs.writeFileSync(join(root, 'directory/tpps/sw2.json.123.tmp'), 'half'))
    expect((await docs.list('directory/tpps/')).map((d) => d.name)).toEqual(['directory/tpps/sw1.json'])
  })

  it("takes the data directory's pki/.lock while create-once work runs, and removes it after", async () => {
    const root = newRoot()
    const docs = new FileBankDocuments(root)
    const seen = await docs.withLock(async () => existsSync(join(root, 'pki', '.lock')))
    expect(seen).toBe(true)
    expect(existsSync(join(root, 'pki', '.lock'))).toBe(false)
  })

  it('names the folder and the fix for messages', () => {
    const root = newRoot()
    expect(new FileBankDocuments(root).locate('pki/')).toEqual({
      where: join(root, 'pki'),
      remove: 'delete that directory',
    })
  })
})
