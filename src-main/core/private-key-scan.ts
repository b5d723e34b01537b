// Private key material found by its content, in whatever encoding it sits: PEM blocks (raw, or cut
// before their end line), base64 of a PEM at any alignment, and base64 DER keys (PKCS#8, PKCS#1, SEC1)
// confirmed by Node's own key parser. `core/redact.ts` removes what this finds.
import { createPrivateKey } from 'node:crypto'

/** What a removed private key becomes. */
export const PRIVATE_KEY_REMOVED = '[private key removed]'

const PEM_BLOCK = /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY)-----[\s\S]*?(?:-----END \1-----|$)/g
/** `---` in base64: five dashes (a PEM armour line) hold it at whichever alignment they are encoded. */
const B64_PEM_MARKER = /LS0t/
const B64_RUN = /[A-Za-z0-9+/_-]{40,}={0,2}/g
/**
 * The first bytes of a DER private key in base64: SEQUENCE (long or short length) then INTEGER version
 * 0 or 1 (PKCS#8, PKCS#1, SEC1). Certificates and public keys start with a SEQUENCE inside a SEQUENCE.
 */
export const B64_DER_KEY_START = /MII[A-Za-z0-9+/_-]{3}IBA|MIG[A-Za-z0-9+/_-]AgE[AB]|M[A-Za-z0-9+/_-]{2}CAQ[A-E]/

function decodeBase64(run: string): Buffer {
  return Buffer.from(run.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
}

function isDerPrivateKey(der: Buffer): boolean {
  for (const type of ['pkcs8', 'pkcs1', 'sec1'] as const) {
    try {
      createPrivateKey({ key: der, format: 'der', type })
      return true
    } catch {
      // not this encoding
    }
  }
  return false
}

/** True when a base64 run holds a PEM private key or a DER private key. */
function base64RunIsKey(run: string): boolean {
  if (B64_PEM_MARKER.test(run)) {
    // The PEM may start at any of three alignments within the run.
    for (let i = 0; i < 4 && i < run.length; i++) {
      const text = decodeBase64(run.slice(i)).toString('latin1')
      if (/PRIVATE KEY-----/.test(text)) return true
    }
  }
  const der = B64_DER_KEY_START.exec(run)
  return der !== null && isDerPrivateKey(decodeBase64(run.slice(der.index)))
}

/** True when the whole value is (or holds) private key material. */
export function looksLikePrivateKey(value: string): boolean {
  if (value.includes('PRIVATE KEY-----')) return true
  if (value.length < 40) return false
  if (!B64_PEM_MARKER.test(value) && !B64_DER_KEY_START.test(value)) return false
  const runs = value.match(B64_RUN) ?? []
  return runs.some(base64RunIsKey)
}

/**
 * Removes private key material inside a text: PEM blocks (raw or `\n`-escaped), base64 PEM, base64 DER
 * keys. `found` is told of each one removed, with what found it (`PEM` or `base64`).
 */
export function removePrivateKeys(text: string, found?: (name: 'PEM' | 'base64', value: string) => void): string {
  let out = text
  if (out.includes('PRIVATE KEY-----')) {
    out = out.replace(PEM_BLOCK, (block) => {
      found?.('PEM', block)
      return PRIVATE_KEY_REMOVED
    })
  }
  if (B64_PEM_MARKER.test(out) || B64_DER_KEY_START.test(out)) {
    out = out.replace(B64_RUN, (run) => {
      if (!base64RunIsKey(run)) return run
      found?.('base64', run)
      return PRIVATE_KEY_REMOVED
    })
  }
  return out
}
