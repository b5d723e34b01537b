import type { ExchangeDto } from '../contract/exchange.ts'

/** Quotes a shell word with single quotes (POSIX sh). */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`
}

export interface CurlOptions {
  /** Paths to put in `--cert`/`--key`/`--cacert` (the console never writes key files for you). */
  certPath?: string
  keyPath?: string
  caPath?: string
}

/**
 * The exchange as a curl command: method, URL, headers, body, and the TLS options of the environment:
 * `--cert`/`--key` when a client certificate was offered, `--cacert` or `-k` (verification off) as the
 * exchange records. Built from the view given, so a masked view gives a masked command and the secrets
 * revealed in it appear as they are; a body
 * the log no longer keeps is read from `body.bin`, with a note saying so.
 *
 * @example toCurl(log.get(id)) // curl -X POST 'https://...' -H 'content-type: application/jwt' --data-binary '...'
 */
export function toCurl(exchange: ExchangeDto, options: CurlOptions = {}): string {
  const parts = ['curl', '-sS', '-X', exchange.request.method, shellQuote(exchange.request.url)]
  for (const [name, value] of exchange.request.headers) parts.push('-H', shellQuote(`${name}: ${value}`))
  const body = exchange.request.body
  if (body) {
    if (body.encoding === 'base64' || body.dropped) parts.push('--data-binary', '@body.bin')
    else parts.push('--data-binary', shellQuote(body.text))
  }
  if (exchange.presentedCertificate) parts.push('--cert', shellQuote(options.certPath ?? 'transport.pem'), '--key', shellQuote(options.keyPath ?? 'transport.key'))
  if (exchange.tls?.verification === 'off') parts.push('-k')
  else if (options.caPath) parts.push('--cacert', shellQuote(options.caPath))
  const notes = [
    ...(exchange.redacted ? ['# secrets are masked (…, ••••••••): reveal each one in the inspector to get a runnable command; private keys are never included'] : []),
    ...(body?.dropped ? [`# the request body (${body.size} bytes) is ${body.dropped.reason.replace(/\s+/g, ' ')}. To run this command, put the body in body.bin`] : []),
    ...(body?.truncated && !body.dropped ? [`# the body was cut at ${body.text.length} of ${body.size} bytes in the log`] : []),
    ...(body?.encoding === 'base64' ? ['# binary body: save it as body.bin'] : []),
  ]
  return [...notes, parts.join(' ')].join('\n')
}
