import { describe, expect, it } from 'vitest'
import { isPem, splitPem, toPem } from '../../../src-main/certificates/pem.ts'

describe('pem', () => {
  it('splits blocks in order, ignoring text between them and CRLF line ends', () => {
    const text =
      'Bag Attributes\r\n    friendlyName: x\r\n-----BEGIN CERTIFICATE-----\r\nAQID\r\n-----END CERTIFICATE-----\r\nnoise\n-----BEGIN PRIVATE' +
      ' KEY-----\nBAUG\n-----END PRIVATE KEY-----\n'
    const blocks = splitPem(text)
    expect(blocks.map((b) => b.label)).toEqual(['CERTIFICATE', 'PRIVATE KEY'])
    expect([...blocks[0]!.der]).toEqual([1, 2, 3])
    expect([...blocks[1]!.der]).toEqual([4, 5, 6])
    expect(isPem(text)).toBe(true)
    expect(isPem('hello')).toBe(false)
  })

  it('keeps the headers of legacy encrypted keys in the block text and out of the DER', () => {
    const block = splitPem(
      '-----BEGIN RSA PRIVATE' +
        ' KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-256-CBC,00\n\nAQID\n-----END RSA PRIVATE KEY-----',
    )[0]!
    expect(block.pem).toContain('Proc-Type: 4,ENCRYPTED')
    expect([...block.der]).toEqual([1, 2, 3])
  })

  it('writes PEM with 64-character lines that splits back to the same bytes', () => {
    const der = Buffer.alloc(100, 7)
    const pem = toPem(der, 'CERTIFICATE')
    expect(pem.split('\n')[1]).toHaveLength(64)
    expect(splitPem(pem)[0]!.der.equals(der)).toBe(true)
  })

  it('a block whose body is not base64 is refused with a coded error naming the block', () => {
    const text =
      '-----BEGIN CERTIFICATE-----\nAQID\n-----END CERTIFICATE-----\n-----BEGIN CERTIFICATE-----\n!!!\n-----END CERTIFICATE-----\n'
    expect(() => splitPem(text)).toThrow(
      expect.objectContaining({
        code: 'INVALID_INPUT',
        cause: 'block 2 (CERTIFICATE) has no valid base64 between its BEGIN and END lines',
      }),
    )
  })
})
