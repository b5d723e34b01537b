import { describe, expect, it } from 'vitest'
import { dnAttributes, dnValue, escapeDnValue, rfc4514 } from '../../../src-main/certificates/subject-dn.ts'
import { x509 } from '../../../src-main/plumbing/x509.ts'

describe('rfc4514', () => {
  it('writes an Open Banking transport subject (stored C, O, OU, CN) as CN=...,OU=...,O=...,C=GB', () => {
    const name = new x509.Name([
      { C: ['GB'] },
      { O: ['Example TPP Ltd'] },
      { OU: ['0015800001041RHAAY'] },
      { CN: ['HQuZPIt3ipkh33Uxytox1E'] },
    ])
    expect(rfc4514(name)).toBe('CN=HQuZPIt3ipkh33Uxytox1E,OU=0015800001041RHAAY,O=Example TPP Ltd,C=GB')
    expect(dnValue(name, 'OU')).toBe('0015800001041RHAAY')
    expect(dnAttributes(name).map((a) => a.type)).toEqual(['C', 'O', 'OU', 'CN'])
  })

  it('escapes special characters and joins multi-valued RDNs with +', () => {
    const name = new x509.Name([{ O: ['Smith, Jones & Co'] }, { CN: ['a+b'], OU: ['x'] }])
    expect(rfc4514(name)).toBe('CN=a\\+b+OU=x,O=Smith\\, Jones & Co')
    expect(escapeDnValue(' lead')).toBe('\\ lead')
    expect(escapeDnValue('#hash')).toBe('\\#hash')
    expect(escapeDnValue('trail ')).toBe('trail\\ ')
    expect(escapeDnValue('q"<>;\\')).toBe('q\\"\\<\\>\\;\\\\')
  })

  it('writes types without an RFC 4514 name as dotted OID with the hex of the DER value', () => {
    // organizationIdentifier (eIDAS certificates), a PrintableString.
    const name = new x509.Name([{ '2.5.4.97': [{ printableString: 'PSDGB-OB-123' }] }, { CN: ['x'] }])
    const hex = Buffer.concat([Buffer.from([0x13, 12]), Buffer.from('PSDGB-OB-123')]).toString('hex')
    expect(rfc4514(name)).toBe(`CN=x,2.5.4.97=#${hex}`)
    expect(dnAttributes(name)[0]).toEqual({ type: 'organizationIdentifier', value: 'PSDGB-OB-123' })
  })

  it('writes each string type with its own tag and encoding: UniversalString as UCS-4, BMPString as UCS-2', () => {
    const name = new x509.Name([
      { '2.5.4.97': [{ universalString: 'Ab€' }] },
      { '2.5.4.5': [{ bmpString: 'Ab€' }] },
    ] as never)
    const ucs4 = Buffer.from([0x1c, 12, 0, 0, 0, 0x41, 0, 0, 0, 0x62, 0, 0, 0x20, 0xac]).toString('hex')
    const ucs2 = Buffer.from([0x1e, 6, 0, 0x41, 0, 0x62, 0x20, 0xac]).toString('hex')
    expect(rfc4514(name)).toBe(`2.5.4.5=#${ucs2},2.5.4.97=#${ucs4}`)
    // The same bytes once the name went through DER and back.
    expect(rfc4514(new x509.Name(name.toArrayBuffer()))).toBe(rfc4514(name))
  })
})
