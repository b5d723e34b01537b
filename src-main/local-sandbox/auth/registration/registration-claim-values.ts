import { RegistrationError, shown } from './registration-error.ts'

/**
 * Reading one claim of the registration request as the type its rule needs: a required claim that is
 * absent, or of another type, is refused as `invalid_client_metadata`, naming the claim and the value found.
 */

export const invalid = (message: string) => new RegistrationError('invalid_client_metadata', message)

export function stringClaim(claims: Record<string, unknown>, name: string): string {
  const value = claims[name]
  if (value === undefined) throw invalid(`the registration JWT has no ${name} claim; it is required (spec section 2.1)`)
  if (typeof value !== 'string' || value === '')
    throw invalid(`${name} is ${shown(value)}; expected a non-empty string`)
  return value
}

export function stringArrayClaim(claims: Record<string, unknown>, name: string): string[] {
  const value = claims[name]
  if (value === undefined) throw invalid(`the registration JWT has no ${name} claim; it is required (spec section 2.1)`)
  if (!Array.isArray(value) || value.length === 0 || value.some((v) => typeof v !== 'string' || v === '')) {
    throw invalid(`${name} is ${shown(value)}; expected a non-empty JSON array of strings`)
  }
  return value as string[]
}

export function integerClaim(claims: Record<string, unknown>, name: string): number {
  const value = claims[name]
  if (value === undefined) throw invalid(`the registration JWT has no ${name} claim; it is required (spec section 2.1)`)
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0)
    throw invalid(`${name} is ${shown(value)}; expected an integer number of seconds since the epoch`)
  return value
}
