import { describe, expect, it } from 'vitest'
import type { BankDocuments } from '../../../../src-main/local-sandbox/store/bank-documents.ts'

/**
 * What every backend's bank documents do: named texts read, replaced and listed by prefix, names that
 * are not relative paths refused, and create-once under the bank-wide lock (of two contenders, the
 * second runs only once the first has finished). `open` gives a fresh, empty set; `another` a second
 * handle on the same one (another process's view).
 */
export function bankDocumentsContract(
  label: string,
  open: () => Promise<{
    docs: BankDocuments
    another: () => Promise<BankDocuments>
    /** Resolves once a second contender is seen waiting for the lock, where the backend shows it. */
    contenderWaiting?: () => Promise<void>
  }>,
): void {
  describe(`bank documents (${label})`, () => {
    it('reads what was written, undefined for a name never written, and the latest text after a replace', async () => {
      const { docs, another } = await open()
      expect(await docs.read('pki/root-ca.pem')).toBeUndefined()
      await docs.write('pki/root-ca.pem', 'first\n')
      await docs.write('pki/root-ca.pem', 'second\n')
      expect(await docs.read('pki/root-ca.pem')).toBe('second\n')
      expect(await (await another()).read('pki/root-ca.pem')).toBe('second\n')
    })

    it('lists the documents under a prefix by name, and nothing for an unknown prefix', async () => {
      const { docs } = await open()
      await docs.write('directory/tpps/b.json', '{"b":1}')
      await docs.write('directory/tpps/a.json', '{"a":1}')
      await docs.write('directory/signing-key.json', '{}', { secret: true })
      expect(await docs.list('directory/tpps/')).toEqual([
        { name: 'directory/tpps/a.json', text: '{"a":1}' },
        { name: 'directory/tpps/b.json', text: '{"b":1}' },
      ])
      expect(await docs.list('nothing/here/')).toEqual([])
    })

    it('refuses a name that is not a relative path of plain segments', async () => {
      const { docs } = await open()
      for (const bad of ['../etc/passwd', '/abs/path', 'pki/../x', 'pki', 'pki/./x', ''])
        await expect(docs.read(bad), bad).rejects.toThrow(/is not a bank document name/)
      await expect(docs.write('pki/../../x', 'x')).rejects.toThrow(/is not a bank document name/)
    })

    it('runs create-once work one at a time across handles, and releases the lock when the work throws', async () => {
      const { docs, another, contenderWaiting } = await open()
      const other = await another()
      const events: string[] = []
      let release!: () => void
      const held = new Promise<void>((r) => (release = r))
      let entered!: () => void
      const inside = new Promise<void>((r) => (entered = r))
      const first = docs.withLock(async () => {
        events.push('first in')
        entered()
        await held
        events.push('first out')
      })
      await inside
      const second = other.withLock(async () => void events.push('second in'))
      await contenderWaiting?.()
      release()
      await Promise.all([first, second])
      expect(events).toEqual(['first in', 'first out', 'second in'])

      await expect(docs.withLock(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
      expect(await other.withLock(async () => 'free again')).toBe('free again')
    })
  })
}
