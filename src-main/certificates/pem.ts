import { AppError } from '../core/app-error.ts'
import { x509 } from '../plumbing/x509.ts'

/** One PEM block: its label (`CERTIFICATE`, `PRIVATE KEY`...), the whole text of the block and its DER. */
export interface PemBlock {
  label: string
  pem: string
  der: Buffer
}

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g

/** True when the text contains at least one PEM block. */
export function isPem(text: string): boolean {
  return /-----BEGIN [A-Z0-9 ]+-----/.test(text)
}

/**
 * Every PEM block in a text, in order. Text between blocks (OpenSSL's `Bag Attributes`, comments)
 * is ignored; the headers of legacy encrypted keys (`Proc-Type`, `DEK-Info`) stay inside `pem`.
 *
 * @example splitPem(fs.readFileSync('bundle.pem', 'utf8')).filter((b) => b.label === 'CERTIFICATE')
 */
export function splitPem(text: string): PemBlock[] {
  return [...text.replace(/\r\n/g, '\n').matchAll(BLOCK)].map((m, i) => {
    // @peculiar/x509 decodes the block (label, legacy headers, DER); the regex only finds the blocks.
    const [struct] = (() => {
      try {
        return x509.PemConverter.decodeWithHeaders(m[0])
      } catch {
        return []
      }
    })()
    if (!struct) {
      throw new AppError('INVALID_INPUT', {
        what: 'Reading the PEM text failed',
        cause: `block ${i + 1} (${m[1]}) has no valid base64 between its BEGIN and END lines`,
        fix: 'paste or choose the PEM exactly as it was issued, without edits, BEGIN and END lines included',
      })
    }
    return { label: struct.type, pem: m[0].trim() + '\n', der: Buffer.from(struct.rawData) }
  })
}

/** Labels of private keys, by format: PKCS#8, encrypted PKCS#8, PKCS#1 RSA, SEC1 EC. */
export const PRIVATE_KEY_LABELS = new Set(['PRIVATE KEY', 'ENCRYPTED PRIVATE KEY', 'RSA PRIVATE KEY', 'EC PRIVATE KEY'])
export const CERTIFICATE_LABELS = new Set(['CERTIFICATE', 'TRUSTED CERTIFICATE', 'X509 CERTIFICATE'])

/** DER bytes as PEM with the given label, 64 characters a line. */
export function toPem(der: Uint8Array, label: string): string {
  return x509.PemConverter.encode(der, label).replace(/\r\n/g, '\n') + '\n'
}
