/** The error codes of RFC 7591 section 3.2.2 that Open Banking DCR 3.2 uses. */
export type RegistrationErrorCode =
  'invalid_client_metadata' | 'invalid_redirect_uri' | 'invalid_software_statement' | 'unapproved_software_statement'

/**
 * Why a registration request was refused: the DCR error code and a sentence naming the claim, the
 * value found and what was expected. The registration routes turn it into `400 {error, error_description}`.
 */
export class RegistrationError extends Error {
  constructor(
    readonly error: RegistrationErrorCode,
    message: string,
  ) {
    super(message)
  }
}

/** A claim's value as it appears in an error sentence (JSON, shortened). */
export function shown(value: unknown): string {
  if (value === undefined) return 'absent'
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 120 ? `${text.slice(0, 117)}...` : text
}
