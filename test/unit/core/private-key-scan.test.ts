import { generateKeyPairSync } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { looksLikePrivateKey, PRIVATE_KEY_REMOVED, removePrivateKeys } from '../../../src-main/core/private-key-scan.ts'

const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' })
const pem = ec.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString()
const der = ec.privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64')
const publicDer = ec.publicKey.export({ format: 'der', type: 'spki' }).toString('base64')

describe('private-key-scan', () => {
  it('removes a PEM block and names what found it', () => {
    const found: string[] = []
    const out = removePrivateKeys(`before ${pem} after`, (name) => found.push(name))
    expect(out).toBe(`before ${PRIVATE_KEY_REMOVED}\n after`)
    expect(found).toEqual(['PEM'])
  })

  it('removes base64 of a PEM at each alignment and a base64 DER key', () => {
    for (const prefix of ['', 'a', 'ab']) {
      const b64 = Buffer.from(prefix + pem).toString('base64')
      const found: string[] = []
      expect(removePrivateKeys(`x ${b64} y`, (name) => found.push(name))).toBe(`x ${PRIVATE_KEY_REMOVED} y`)
      expect(found).toEqual(['base64'])
    }
    expect(removePrivateKeys(`"k":"${der}"`)).toBe(`"k":"${PRIVATE_KEY_REMOVED}"`)
  })

  it('keeps public keys and ordinary base64, and says which values are keys', () => {
    expect(removePrivateKeys(`spki ${publicDer}`)).toBe(`spki ${publicDer}`)
    expect(looksLikePrivateKey(publicDer)).toBe(false)
    expect(looksLikePrivateKey(der)).toBe(true)
    expect(looksLikePrivateKey(pem)).toBe(true)
    expect(looksLikePrivateKey('short')).toBe(false)
  })
})
