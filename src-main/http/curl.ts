import type { ExchangeDto } from '../contract/exchange.ts'

/** Quotes a shell word with single quotes (POSIX sh). */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`
}

/** Request bodies over this many bytes go through a file (`--data-binary @body.bin`), not the command line. */
export const CURL_INLINE_BODY_MAX = 8 * 1024

export interface CurlOptions {
  /**
   * Paths to put in `--cert`/`--key`/`--cacert`. The console never writes a key file: without `keyPath`
   * the command names `transport.key` and a note says to put the identity's transport key there.
   */
  certPath?: string
  keyPath?: string
  caPath?: string
  /**
   * How the exchange's environment checks the bank's servers: `exact-ca` gives `--cacert` (with `caPath`, else
   * a note naming what is missing), `system` nothing (curl's own trust store), `off` gives `-k`.
   */
  trust?: 'exact-ca' | 'system' | 'off'
  /** Bodies over this many bytes are written to `body.bin` first (default `CURL_INLINE_BODY_MAX`). */
  inlineBodyMax?: number
}

/**
 * The exchange as a curl command that runs (POSIX sh): method, URL, the headers as sent, the body, and the
 * TLS options of the environment: `--cert`/`--key` when a client certificate was offered, `--cacert` for an
 * environment that trusts an exact CA (the bundle's path given), nothing for system trust (curl's own store),
 * `-k` only where verification is off, as the exchange went. A body over
 * `inlineBodyMax` bytes is written to `body.bin` by a `printf` line before the command (a shell builtin, so
 * no argument-length limit) and sent with `--data-binary @body.bin`; a binary body goes through `base64 -d`.
 * Built from the view given, so a masked view gives a masked command (a masked token makes the bank answer
 * 401) and the secrets revealed in it appear as they are; a body the log no longer keeps is read from
 * `body.bin`, with a note saying so. Private keys never appear: only the key file's path.
 *
 * @example toCurl(log.get(id), { caPath: sandbox.caBundlePath }) // curl -sS -X POST 'https://...' -H '...' --data-binary '...' --cert ...
 */
export function toCurl(exchange: ExchangeDto, options: CurlOptions = {}): string {
  const parts = ['curl', '-sS', '-X', exchange.request.method, shellQuote(exchange.request.url)]
  for (const [name, value] of exchange.request.headers) parts.push('-H', shellQuote(`${name}: ${value}`))
  const body = exchange.request.body
  const inlineMax = options.inlineBodyMax ?? CURL_INLINE_BODY_MAX
  const prelude: string[] = []
  if (body) {
    const kept = !body.dropped && !body.truncated
    const large = Buffer.byteLength(body.text) > inlineMax
    if (body.dropped || (body.encoding === 'base64' && !kept)) parts.push('--data-binary', '@body.bin')
    else if (body.encoding === 'base64') {
      prelude.push(`printf '%s' ${shellQuote(body.text)} | base64 -d > body.bin`)
      parts.push('--data-binary', '@body.bin')
    } else if (large) {
      prelude.push(`printf '%s' ${shellQuote(body.text)} > body.bin`)
      parts.push('--data-binary', '@body.bin')
    } else parts.push('--data-binary', shellQuote(body.text))
  }
  if (exchange.presentedCertificate)
    parts.push(
      '--cert',
      shellQuote(options.certPath ?? 'transport.pem'),
      '--key',
      shellQuote(options.keyPath ?? 'transport.key'),
    )
  const verifyOff = exchange.tls?.verification === 'off' || options.trust === 'off'
  if (verifyOff) parts.push('-k')
  else if (options.caPath && options.trust !== 'system') parts.push('--cacert', shellQuote(options.caPath))
  const notes = [
    ...(exchange.redacted
      ? [
          '# secrets are masked (…, ••••••••): put each one in (Reveal shows it in the inspector) for a runnable command; private keys are never included',
        ]
      : []),
    ...(exchange.presentedCertificate && (!options.certPath || !options.keyPath)
      ? [
          `# mutual TLS: ${options.certPath ? '' : "save the identity's transport certificate (PEM) as transport.pem and "}put its private key (PEM) in ${options.keyPath ? shellQuote(options.keyPath) : 'transport.key'}, or change the paths below`,
        ]
      : []),
    ...(!verifyOff && options.trust === 'exact-ca' && !options.caPath
      ? [
          "# the environment trusts an exact CA bundle: add --cacert with the bank's CA bundle file (PEM), or curl will not trust the server",
        ]
      : []),
    ...(body?.dropped
      ? [
          `# the request body (${body.size} bytes) is ${body.dropped.reason.replace(/\s+/g, ' ')}. To run this command, put the body in body.bin`,
        ]
      : []),
    ...(body?.truncated && !body.dropped
      ? [`# the body was cut at ${body.text.length} of ${body.size} bytes in the log`]
      : []),
    ...(body && !body.dropped && body.truncated && body.encoding === 'base64'
      ? ['# binary body: save it as body.bin']
      : []),
    ...(prelude.length
      ? [
          `# the ${body?.encoding === 'base64' ? 'binary ' : ''}body (${body?.size} bytes) is written to body.bin first, then sent from it`,
        ]
      : []),
  ]
  return [...notes, ...prelude, parts.join(' ')].join('\n')
}
