import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSelfSignedCertificate, issueCertificate } from '../../../src-main/certificates/generate.ts'

const run = promisify(execFile)
const BIN = resolve(import.meta.dirname, '../../../bin/ob-console.js')

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { timeout: 30_000 })
    return { code: 0, stdout, stderr }
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

describe('ob-console cert inspect', () => {
  let dir: string
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cert-cli-'))
    const ca = await createSelfSignedCertificate({ subject: 'CN=Test Root CA, O=Test, C=GB', ca: {} })
    const leaf = await issueCertificate(ca, {
      subject: 'CN=softwareid123, OU=0015800001ABCDEFGH, O=TPP Ltd, C=GB',
      extendedKeyUsages: ['clientAuth'],
    })
    const other = await createSelfSignedCertificate({ subject: 'CN=Other CA', ca: {} })
    writeFileSync(join(dir, 'leaf.pem'), leaf.certPem)
    writeFileSync(join(dir, 'leaf.key'), leaf.keyPem)
    writeFileSync(join(dir, 'ca.pem'), ca.certPem)
    writeFileSync(join(dir, 'other.key'), other.keyPem)
    writeFileSync(join(dir, 'other.pem'), other.certPem)
    writeFileSync(join(dir, 'junk.pem'), 'not a certificate')
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('prints the subject, the tls_client_auth DN and the Open Banking ids, and passes key and chain checks', async () => {
    const r = await cli(
      'cert',
      'inspect',
      join(dir, 'leaf.pem'),
      '--key',
      join(dir, 'leaf.key'),
      '--ca',
      join(dir, 'ca.pem'),
    )
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('tls_client_auth')
    expect(r.stdout).toContain('org 0015800001ABCDEFGH, software softwareid123')
    expect(r.stdout).toMatch(/✓ .*match/i)
  })

  it('exits 1 naming the failed checks for a wrong key and a foreign CA', async () => {
    const r = await cli(
      'cert',
      'inspect',
      join(dir, 'leaf.pem'),
      '--key',
      join(dir, 'other.key'),
      '--ca',
      join(dir, 'other.pem'),
      '--json',
    )
    expect(r.code).toBe(1)
    const out = JSON.parse(r.stdout)
    expect(out.checks.some((c: { pass: boolean }) => !c.pass)).toBe(true)
    expect(out.certificates[0].orgId).toBe('0015800001ABCDEFGH')
  })

  it('explains a file that is not a certificate, and a missing file, with exit codes 1 and 2', async () => {
    const junk = await cli('cert', 'inspect', join(dir, 'junk.pem'))
    expect(junk.code).toBe(1)
    expect(junk.stderr).toContain('fix:')
    const missing = await cli('cert', 'inspect', join(dir, 'nope.pem'))
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/nope\.pem: the file does not exist/)
  })
})
