import type { DnAttributeDto } from '../contract/certificates.ts'
import { RFC4514_NAMES, rdns } from '../plumbing/subject-dn.ts'
import type { x509 } from '../plumbing/x509.ts'

/** The RFC 4514 string of a name: written in `plumbing/` (the local sandbox writes its subjects the same way). */
export { escapeDnValue, rfc4514 } from '../plumbing/subject-dn.ts'

/** Friendlier names for display only (the RFC 4514 string keeps OIDs for these). */
const DISPLAY_NAMES: Record<string, string> = {
  ...RFC4514_NAMES,
  '2.5.4.5': 'serialNumber',
  '2.5.4.97': 'organizationIdentifier',
  '2.5.4.4': 'SN',
  '2.5.4.42': 'GN',
  '2.5.4.12': 'title',
  '1.2.840.113549.1.9.1': 'emailAddress',
}

/** The attributes of a name in certificate (ASN.1) order, with display names. */
export function dnAttributes(name: x509.Name): DnAttributeDto[] {
  return rdns(name).flatMap((rdn) =>
    rdn.map(({ type, value }) => ({
      type: DISPLAY_NAMES[type] ?? type,
      value: value.anyValue ? `#${Buffer.from(value.anyValue).toString('hex')}` : value.toString(),
    })),
  )
}

/** The first value of an attribute (`CN`, `OU`...), or undefined. */
export function dnValue(name: x509.Name, type: string): string | undefined {
  return dnAttributes(name).find((a) => a.type === type)?.value
}
