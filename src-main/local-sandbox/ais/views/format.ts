import { isoDateTime } from '../../clock.ts'

/** Sandbox ms as an ISO 8601 date-time with the `+00:00` offset. */
export function iso(ms: number): string {
  return isoDateTime(new Date(ms))
}

/** A PAN as AIS shows it without ReadPAN: only the last four digits. */
export function maskPan(pan: string): string {
  return `${'*'.repeat(Math.max(0, pan.length - 4))}${pan.slice(-4)}`
}

/** The PAN in the clear with ReadPAN, masked without. */
export function panFor(pan: string, readPan: boolean): string {
  return readPan ? pan : maskPan(pan)
}

/** `{SchemeName, Identification, Name}` of a UK sort code and account number. */
export function sortCodeAccount(
  identification: string,
  name: string,
): { SchemeName: string; Identification: string; Name: string } {
  return { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: identification, Name: name }
}
