// The Open Banking v4.0 error and status-reason codes (reference section 2.3), with the v3.1 name and
// an explanation a TPP developer can act on. The console shows both the 4-character code and the name.

export interface ObCodeInfo {
  /** The v3.1 name (`UK.OBIE.Field.Missing`). */
  name: string
  /** HTTP status the code comes with. */
  status?: number
  explanation: string
}

export const OB_ERROR_CODES: Record<string, ObCodeInfo> = {
  U000: {
    name: 'UK.OBIE.UnexpectedError',
    status: 500,
    explanation: 'The bank failed unexpectedly. Retry later; if it persists, report it with the x-fapi-interaction-id.',
  },
  U001: {
    name: 'UK.OBIE.Field.Expected',
    status: 400,
    explanation: "A field is required in this context (because of another field's value). Path names it.",
  },
  U002: {
    name: 'UK.OBIE.Field.Invalid',
    status: 400,
    explanation: 'A field has a value that is not allowed (wrong format, enum or length). Path names it.',
  },
  U003: {
    name: 'UK.OBIE.Field.InvalidDate',
    status: 400,
    explanation:
      'A date is invalid or out of range (e.g. in the past when it must be in the future). Use ISO 8601 with a time zone.',
  },
  U004: { name: 'UK.OBIE.Field.Missing', status: 400, explanation: 'A mandatory field is missing. Path names it.' },
  U005: {
    name: 'UK.OBIE.Field.Unexpected',
    status: 400,
    explanation: 'A field is present that is not allowed here (v4.0 objects forbid additional properties).',
  },
  U006: {
    name: 'UK.OBIE.Header.Invalid',
    status: 400,
    explanation: 'A header has an invalid value (x-fapi-auth-date, x-idempotency-key longer than 40 characters...).',
  },
  U007: {
    name: 'UK.OBIE.Header.Missing',
    status: 400,
    explanation: 'A required header is missing (x-idempotency-key on PIS POSTs, x-jws-signature...).',
  },
  U008: {
    name: 'UK.OBIE.Resource.ConsentMismatch',
    status: 400,
    explanation:
      'The payment does not match its consent: Initiation and Risk must be byte-for-byte the values of the consent.',
  },
  U009: {
    name: 'UK.OBIE.Resource.InvalidConsentStatus',
    status: 400,
    explanation:
      'The consent is not in a status that allows this (e.g. not AUTH yet, already consumed, revoked or expired). Read the consent to see its status.',
  },
  U010: {
    name: 'UK.OBIE.Resource.InvalidFormat',
    status: 400,
    explanation: 'The body is not valid JSON or does not follow the schema.',
  },
  U011: {
    name: 'UK.OBIE.Resource.NotFound',
    status: 400,
    explanation:
      'The resource id (ConsentId, AccountId, payment id) is unknown, or not yours. Open Banking answers 400, not 404.',
  },
  U012: {
    name: 'UK.OBIE.Rules.AfterCutOffDateTime',
    status: 400,
    explanation:
      "The payment is after the bank's cut-off time; the consent is rejected or the payment moves to the next working day.",
  },
  U013: {
    name: 'UK.OBIE.Rules.DuplicateReference',
    status: 400,
    explanation: 'A reference (InstructionIdentification, EndToEndIdentification) was already used.',
  },
  U014: {
    name: 'UK.OBIE.Rules.FailsControlParameters',
    status: 400,
    explanation: "The request breaks the consent's control parameters (amount, frequency, period).",
  },
  U015: {
    name: 'UK.OBIE.Signature.Invalid',
    status: 400,
    explanation:
      'The x-jws-signature does not verify: the body sent is not the bytes signed (even whitespace counts), or the kid is not the key that signed.',
  },
  U016: {
    name: 'UK.OBIE.Signature.InvalidClaim',
    status: 400,
    explanation:
      'A claim of the x-jws-signature header is wrong: iss must be {org_id}/{software_id}, iat a past JSON number, tan openbanking.org.uk, alg PS256.',
  },
  U017: {
    name: 'UK.OBIE.Signature.MissingClaim',
    status: 400,
    explanation: 'A required claim is missing from the x-jws-signature header (kid, the three OB crit claims).',
  },
  U018: {
    name: 'UK.OBIE.Signature.Malformed',
    status: 400,
    explanation: 'The x-jws-signature is not a detached JWS (header..signature), or uses b64=false (pre-3.1.4).',
  },
  U019: {
    name: 'UK.OBIE.Signature.Missing',
    status: 400,
    explanation: 'The x-jws-signature header is required on this request (every PIS POST).',
  },
  U020: {
    name: 'UK.OBIE.Signature.Unexpected',
    status: 400,
    explanation: 'An x-jws-signature was sent where none is expected.',
  },
  U021: {
    name: 'UK.OBIE.Unsupported.AccountIdentifier',
    status: 400,
    explanation:
      'The account identification is not supported for this scheme (e.g. a sort code and account number of the wrong length: 14 digits).',
  },
  U022: {
    name: 'UK.OBIE.Unsupported.AccountSecondaryIdentifier',
    status: 400,
    explanation: 'The secondary identification (roll number...) is not supported.',
  },
  U023: {
    name: 'UK.OBIE.Unsupported.Currency',
    status: 400,
    explanation: 'The currency is not supported for this payment or account.',
  },
  U024: { name: 'UK.OBIE.Unsupported.EventType', status: 400, explanation: 'The event type is not supported.' },
  U025: { name: 'UK.OBIE.Unsupported.Frequency', status: 400, explanation: 'The frequency is not supported.' },
  U026: {
    name: 'UK.OBIE.Unsupported.LocalInstrument',
    status: 400,
    explanation: 'The LocalInstrument (UK.OBIE.FPS, UK.OBIE.BACS...) is not supported by the bank.',
  },
  U027: {
    name: 'UK.OBIE.Unsupported.Scheme',
    status: 400,
    explanation: 'The SchemeName is not supported (use UK.OBIE.SortCodeAccountNumber or UK.OBIE.IBAN...).',
  },
  U028: {
    name: 'UK.OBIE.Reauthenticate',
    status: 403,
    explanation:
      'The PSU must authorise the consent again (SCA needed); the consent is now CANC. Send the PSU through the authorisation again.',
  },
  U029: {
    name: 'UK.OBIE.Rules.ResourceAlreadyExists',
    status: 409,
    explanation: 'The resource already exists (the consent was already used for a payment).',
  },
  U030: { name: 'UK.OBIE.Received', explanation: 'Status reason: received.' },
  U031: { name: 'UK.OBIE.ChecksNotStarted', explanation: 'Status reason: the bank has not started its checks.' },
  U032: { name: 'UK.OBIE.ProfileChecksDone', explanation: 'Status reason: profile checks are done.' },
  U033: { name: 'UK.OBIE.AuthorisationFailed', explanation: 'Status reason: the authorisation failed.' },
  U034: { name: 'UK.OBIE.DebtorDebited', explanation: 'Status reason: the debtor account was debited.' },
  U035: { name: 'UK.OBIE.ConsentAlreadyUsed', explanation: 'Status reason: the consent was already used.' },
  U036: {
    name: 'UK.OBIE.AuthorisationNotCompleted',
    explanation: 'Status reason: the PSU did not complete the authorisation.',
  },
  U037: { name: 'UK.OBIE.AuthorisationFailed', explanation: 'Status reason: the authorisation failed.' },
  U038: { name: 'UK.OBIE.ConsentConsumed', explanation: 'Status reason: the consent was consumed.' },
  U039: { name: 'UK.OBIE.ReinstateNotAllowed', explanation: 'Status reason: the consent cannot be reinstated.' },
  U040: {
    name: 'UK.OBIE.AwaitingMultiAuth',
    explanation: 'Status reason: awaiting further authorisations (multi-authorisation).',
  },
  U041: {
    name: 'UK.OBIE.ExemptionNotApplied',
    explanation: 'Status reason: the requested SCA exemption was not applied.',
  },
  U042: { name: 'UK.OBIE.OtherReason', explanation: 'Status reason: another reason; see the description.' },
  TKXP: { name: 'TokenExpired', explanation: 'The consent expired (status EXPD). Create a new consent.' },
  TKSP: {
    name: 'TokenSuspended',
    explanation: 'The consent was suspended (status CANC), e.g. for suspicious use; re-authorise if U028 also comes.',
  },
  AM04: { name: 'InsufficientFunds', explanation: 'The debtor account has not enough funds.' },
}

/** Looks a code up by its 4-character form or its v3.1 name (`UK.OBIE.Field.Missing`). */
export function obCodeInfo(code: string): (ObCodeInfo & { code: string }) | undefined {
  const direct = OB_ERROR_CODES[code]
  if (direct) return { code, ...direct }
  const entry = Object.entries(OB_ERROR_CODES).find(([, info]) => info.name === code)
  return entry ? { code: entry[0], ...entry[1] } : undefined
}
