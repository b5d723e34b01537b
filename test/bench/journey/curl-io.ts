/**
 * The P2 peer: the journey done the way the bank's documentation leads a developer today, by hand with
 * `curl` and `openssl`. Every HTTP call is its own `curl` process (`--cert`/`--key`/`--cacert`, so a new
 * TCP connection and TLS handshake each time) and every PS256 signature its own `openssl dgst` process
 * (RSASSA-PSS, SHA-256, salt length 32) over `base64url(header).base64url(payload)`.
 *
 * Only the glue a developer would do with `jq`, `base64` and `tr` (JSON fields, base64url) runs in this
 * process, without a process of its own: that favours the peer. It verifies no signature (a developer
 * with curl does not), which favours it too.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { StarterKit } from '../lib/sandbox-process.ts'
import type { HttpAnswer, HttpCall, JourneyIo } from './session.ts'

/** Runs `cmd args` with `input` on stdin; resolves stdout, rejects with stderr on a non-zero exit. */
export function runProcess(cmd: string, args: string[], input?: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (d: Buffer) => out.push(d))
    child.stderr.on('data', (d: Buffer) => err.push(d))
    child.once('error', reject)
    // A process that exits without reading its input (curl failing to connect) closes the pipe: the exit code says why.
    child.stdin.on('error', () => undefined)
    child.once('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out))
      else reject(new Error(`${cmd} exited with ${code}: ${Buffer.concat(err).toString('utf8').trim().slice(0, 400)}`))
    })
    child.stdin.end(input ?? '')
  })
}

/** Splits `curl -i` output into status, headers and body (the last response if curl printed several). */
export function parseCurlOutput(raw: Buffer): HttpAnswer {
  let rest = raw
  for (;;) {
    const end = rest.indexOf('\r\n\r\n')
    if (end < 0) throw new Error(`curl printed no HTTP header block: ${rest.toString('utf8').slice(0, 200)}`)
    const head = rest.subarray(0, end).toString('latin1').split('\r\n')
    const status = Number(/^HTTP\/[\d.]+ (\d{3})/.exec(head[0]!)?.[1])
    rest = rest.subarray(end + 4)
    if (status === 100) continue
    const headers: Record<string, string> = {}
    for (const line of head.slice(1)) {
      const colon = line.indexOf(':')
      if (colon <= 0) continue
      const name = line.slice(0, colon).trim().toLowerCase()
      const value = line.slice(colon + 1).trim()
      headers[name] = headers[name] ? `${headers[name]}, ${value}` : value
    }
    return { status, headers, text: rest.toString('utf8') }
  }
}

/** The by-hand stack: the kit written to files in a temporary directory, as a developer keeps it. */
export function curlIo(caBundlePath: string, kit: StarterKit): JourneyIo {
  const dir = mkdtempSync(join(tmpdir(), 'ob-bench-kit-'))
  const transportCert = join(dir, 'transport.pem')
  const transportKey = join(dir, 'transport.key')
  const signingKey = join(dir, 'signing.key')
  writeFileSync(transportCert, kit.transportCertPem)
  writeFileSync(transportKey, kit.transportKeyPem, { mode: 0o600 })
  writeFileSync(signingKey, kit.signingKeyPem, { mode: 0o600 })
  return {
    async http(c: HttpCall): Promise<HttpAnswer> {
      const args = ['-sS', '-i', '--cacert', caBundlePath]
      if (c.mtls) args.push('--cert', transportCert, '--key', transportKey)
      if (c.method !== 'GET' && c.body === undefined) args.push('-X', c.method)
      for (const [k, v] of Object.entries(c.headers ?? {})) args.push('-H', `${k}: ${v}`)
      if (c.body !== undefined) args.push('--data-binary', '@-')
      args.push(c.url)
      return parseCurlOutput(await runProcess('curl', args, c.body))
    },
    async sign(header, payload) {
      const input = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(payload).toString('base64url')}`
      const signature = await runProcess(
        'openssl',
        ['dgst', '-sha256', '-sigopt', 'rsa_padding_mode:pss', '-sigopt', 'rsa_pss_saltlen:32', '-sign', signingKey],
        input,
      )
      return `${input}.${signature.toString('base64url')}`
    },
    async close() {
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
