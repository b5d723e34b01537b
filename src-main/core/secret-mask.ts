// How one secret value is shown once found: a private key is removed (`[private key removed]`, never
// revealable); a token, code or credential is masked (first 8 … last 8, or `••••••••` when short) unless
// the user revealed it. Every secret met is reported to the pass's `MaskContext.found`, under an opaque
// handle (`secretRef`) the renderer may ask to reveal. `core/redact.ts` and `core/redact-text.ts` find the
// values; this decides what each becomes.
import { createHmac, randomBytes } from 'node:crypto'
import { looksLikePrivateKey, PRIVATE_KEY_REMOVED, removePrivateKeys } from './private-key-scan.ts'

/** What a short token, code or credential becomes. */
export const FULLY_MASKED = '••••••••'
/** Values at least this long keep their first and last 8 characters when masked. */
const PARTIAL_MASK_MIN = 32

export type SecretKind = 'private-key' | 'token' | 'code' | 'credential'

/** One secret the redactor met, as it reported it to `MaskContext.found`. */
export interface SecretFound {
  kind: SecretKind
  /** The member, parameter or header name it sat under, or what found it (`PEM`, `Bearer`). */
  name: string
  /** The value itself (main side only: never send it anywhere). */
  value: string
  /** What the value became (the value itself when revealed). */
  shown: string
  revealed: boolean
}

/** How one redaction pass treats what it finds. */
export interface MaskContext {
  /** Values the user revealed: shown as they are. Never applies to private keys. */
  revealed?: ReadonlySet<string>
  /** Told of every secret found (masked or revealed). */
  found?: (secret: SecretFound) => void
}

/** A pass with nothing revealed and no one told: every secret masked (frozen: shared by every such pass). */
export const NO_REVEAL: MaskContext = Object.freeze({})

/**
 * True for what a redaction pass leaves in place of a secret (so a second pass leaves it alone), and for
 * a placeholder in words (`(stored encrypted)`), which holds nothing to hide.
 */
export function isMasked(value: string): boolean {
  return (
    value === FULLY_MASKED ||
    value === PRIVATE_KEY_REMOVED ||
    value === '' ||
    /^[^\s…]{1,8}…[^\s…]{1,8}$/.test(value) ||
    /^\([a-z ]+\)$/.test(value)
  )
}

/** A token or code masked: first 8 + `…` + last 8, or fully masked when short. */
export function maskToken(value: string): string {
  return value.length >= PARTIAL_MASK_MIN ? `${value.slice(0, 8)}…${value.slice(-8)}` : FULLY_MASKED
}

/** Masks one secret value under `ctx`: a private key is removed; anything else masked unless revealed. */
export function maskSecret(value: string, kind: SecretKind, name: string, ctx: MaskContext = NO_REVEAL): string {
  if (isMasked(value)) return value
  if (kind === 'private-key' || looksLikePrivateKey(value)) {
    ctx.found?.({ kind: 'private-key', name, value, shown: PRIVATE_KEY_REMOVED, revealed: false })
    return PRIVATE_KEY_REMOVED
  }
  const revealed = ctx.revealed?.has(value) === true
  const shown = revealed ? value : maskToken(value)
  ctx.found?.({ kind, name, value, shown, revealed })
  return shown
}

/** Removes private key material from a text, telling `ctx.found` of each key removed. */
export function removeKeys(text: string, ctx: MaskContext): string {
  return removePrivateKeys(
    text,
    ctx.found &&
      ((name, value) => ctx.found?.({ kind: 'private-key', name, value, shown: PRIVATE_KEY_REMOVED, revealed: false })),
  )
}

const REF_KEY = randomBytes(32)

/**
 * An opaque, stable handle for a secret value (HMAC with a key of this process): lets the renderer ask
 * for one value without the handle telling anything about it.
 */
export function secretRef(value: string): string {
  return createHmac('sha256', REF_KEY).update(value).digest('base64url').slice(0, 22)
}
