// RFC 4514 strings of distinguished names: the one way the console and the local sandbox write a
// certificate's subject (the string a `tls_client_auth` client registers as `tls_client_auth_subject_dn`, and
// the subject an exchange or a refusal names). A string format, no rule of either side.
import { AsnConvert } from '@peculiar/asn1-schema'
import { x509 } from './x509.ts'

/** Attribute types RFC 4514 (section 3) names in strings; every other type is written as its dotted OID. */
export const RFC4514_NAMES: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.6': 'C',
  '2.5.4.9': 'STREET',
  '0.9.2342.19200300.100.1.25': 'DC',
  '0.9.2342.19200300.100.1.1': 'UID',
}

/** The parts of @peculiar/asn1-x509's AttributeValue this file reads. */
interface AsnAttributeValue {
  utf8String?: string
  printableString?: string
  teletexString?: string
  universalString?: string
  bmpString?: string
  ia5String?: string
  anyValue?: ArrayBuffer
  toString(): string
}
export type AsnName = Array<Array<{ type: string; value: AsnAttributeValue }>>

/**
 * The parsed ASN.1 RDN sequence of an x509 Name. @peculiar/x509 keeps it in the (TypeScript-private)
 * `asn` member; reading it is the only way to know each value's string type without parsing the DER.
 */
export function rdns(name: x509.Name): AsnName {
  return (name as unknown as { asn: AsnName }).asn
}

/**
 * The DER of an attribute value (the string type it was written with, and its bytes), for RFC 4514's
 * `#hex` form of types without a string name. The ASN.1 library serialises it: each string type with its
 * own tag and encoding (UTF8String as UTF-8, BMPString as UCS-2, UniversalString as UCS-4...).
 */
function valueDer(value: AsnAttributeValue): Buffer {
  if (value.anyValue) return Buffer.from(value.anyValue)
  return Buffer.from(AsnConvert.serialize(value))
}

/** Escapes a string value as RFC 4514 section 2.4 requires. */
export function escapeDnValue(value: string): string {
  let out = value.replace(/[\\"+,;<>]/g, (c) => `\\${c}`).replace(/\0/g, '\\00')
  if (out.startsWith(' ') || out.startsWith('#')) out = `\\${out}`
  if (out.endsWith(' ') && out.length > 1) out = `${out.slice(0, -1)}\\ `
  return out
}

/**
 * The RFC 4514 string of a distinguished name: RDNs from the last to the first (so an Open Banking
 * certificate stored as C, O, OU, CN reads `CN=...,OU=...,O=...,C=GB`), no spaces after commas,
 * multi-valued RDNs joined by `+`, types without an RFC 4514 name as dotted OIDs with `#hex` values.
 * This is the string a `tls_client_auth` client registers as `tls_client_auth_subject_dn`.
 *
 * @example rfc4514(cert.subjectName) // 'CN=0012345678abcdefAB,OU=0015800001041RHAAY,O=Example TPP Ltd,C=GB'
 */
export function rfc4514(name: x509.Name): string {
  return [...rdns(name)]
    .reverse()
    .map((rdn) =>
      rdn
        .map(({ type, value }) => {
          const short = RFC4514_NAMES[type]
          if (!short) return `${type}=#${valueDer(value).toString('hex')}`
          return value.anyValue
            ? `${short}=#${Buffer.from(value.anyValue).toString('hex')}`
            : `${short}=${escapeDnValue(value.toString())}`
        })
        .join('+'),
    )
    .join(',')
}

/** The subject of a certificate (PEM, base64 or DER) as an RFC 4514 string (see `rfc4514`). */
export function certificateSubjectDn(cert: string | Uint8Array): string {
  return rfc4514(new x509.X509Certificate(cert).subjectName)
}
