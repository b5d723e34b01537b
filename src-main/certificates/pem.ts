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
  const blocks: PemBlock[] = []
  for (const m of text.replace(/\r\n/g, '\n').matchAll(BLOCK)) {
    const body = m[2]!.split('\n').filter((line) => line.trim() !== '' && !line.includes(':')).join('')
    blocks.push({ label: m[1]!, pem: m[0].trim() + '\n', der: Buffer.from(body.replace(/\s+/g, ''), 'base64') })
  }
  return blocks
}

/** Labels of private keys, by format: PKCS#8, encrypted PKCS#8, PKCS#1 RSA, SEC1 EC. */
export const PRIVATE_KEY_LABELS = new Set(['PRIVATE KEY', 'ENCRYPTED PRIVATE KEY', 'RSA PRIVATE KEY', 'EC PRIVATE KEY'])
export const CERTIFICATE_LABELS = new Set(['CERTIFICATE', 'TRUSTED CERTIFICATE', 'X509 CERTIFICATE'])

/** DER bytes as PEM with the given label, 64 characters a line. */
export function toPem(der: Uint8Array, label: string): string {
  const b64 = Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '')
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`
}
