import { X509Certificate } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { dataDirLayout } from '../../../../src-main/local-sandbox/data-dir.ts'
import { startLocalSandbox } from '../../../../src-main/local-sandbox/index.ts'
import {
  defaultPkiTemplateDir,
  isFreshDataDir,
  saveTemplate,
  seedFromTemplate,
} from '../../../../src-main/local-sandbox/pki/template.ts'

const roots: string[] = []
function temp(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  roots.push(dir)
  return dir
}
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true })
})

const mode = (path: string) => statSync(path).mode & 0o777

describe('PKI template for throwaway sandboxes', () => {
  const template = join(temp('ob-tpl-parent-'), 'sandbox-pki-template')

  it('the first fresh sandbox makes the template (folder 0700, keys 0600); the next one starts from it with the same roots and keys', async () => {
    const firstDir = temp('ob-tpl-a-')
    const first = await startLocalSandbox({ dataDir: firstDir, pkiTemplate: template, log: () => {} })
    await first.stop()
    expect(mode(template)).toBe(0o700)
    for (const key of [
      'pki/root-ca.key',
      'pki/issuing-ca.key',
      'pki/server.key',
      'auth/signing-key.json',
      'directory/signing-key.json',
    ]) {
      expect(mode(join(template, key))).toBe(0o600)
      expect(readFileSync(join(template, key))).toEqual(readFileSync(join(firstDir, key)))
    }
    expect(readdirSync(join(template, '..')).filter((f) => f.includes('.tmp-'))).toEqual([])

    const secondDir = temp('ob-tpl-b-')
    const second = await startLocalSandbox({ dataDir: secondDir, pkiTemplate: template, log: () => {} })
    try {
      expect(second.caBundlePem).toBe(first.caBundlePem)
      expect(mode(join(secondDir, 'pki', 'root-ca.key'))).toBe(0o600)
      expect(readFileSync(join(secondDir, 'auth', 'signing-key.json'), 'utf8')).toBe(
        readFileSync(join(firstDir, 'auth', 'signing-key.json'), 'utf8'),
      )
      // Every TPP still gets keys of its own.
      const a = await second.context.directory.onboard({})
      const b = await second.context.directory.onboard({})
      expect(a.signingKeyPem).not.toBe(b.signingKeyPem)
      expect(a.transportKeyPem).not.toBe(b.transportKeyPem)
      expect(
        new X509Certificate(a.transportCertPem).checkIssued(new X509Certificate(second.context.pki.issuingCaPem)),
      ).toBe(true)
    } finally {
      await second.stop()
    }
  })

  it('a data dir that has its own PKI keeps it: nothing is copied over it', async () => {
    const dir = temp('ob-tpl-own-')
    const own = await startLocalSandbox({ dataDir: dir, log: () => {} })
    await own.stop()
    const layout = dataDirLayout(dir)
    expect(isFreshDataDir(layout)).toBe(false)
    expect(seedFromTemplate(layout, template)).toBe(false)
    const again = await startLocalSandbox({ dataDir: dir, pkiTemplate: template, log: () => {} })
    await again.stop()
    expect(again.caBundlePem).toBe(own.caBundlePem)
  })

  it('an incomplete template is not used, and an existing template is never replaced', () => {
    const partial = temp('ob-tpl-partial-')
    writeFileSync(join(partial, 'root-ca.pem'), 'x')
    expect(seedFromTemplate(dataDirLayout(temp('ob-tpl-c-')), partial)).toBe(false)

    const before = readFileSync(join(template, 'pki', 'root-ca.pem'), 'utf8')
    const other = dataDirLayout(temp('ob-tpl-d-'))
    saveTemplate(other, template) // `other` has no PKI: nothing to save, nothing changes
    expect(readFileSync(join(template, 'pki', 'root-ca.pem'), 'utf8')).toBe(before)
    expect(existsSync(join(other.pki, 'root-ca.pem'))).toBe(false)
  })

  it('lives in the user cache directory unless OB_CONSOLE_PKI_TEMPLATE_DIR says otherwise', () => {
    const saved = { t: process.env.OB_CONSOLE_PKI_TEMPLATE_DIR, x: process.env.XDG_CACHE_HOME }
    try {
      delete process.env.OB_CONSOLE_PKI_TEMPLATE_DIR
      process.env.XDG_CACHE_HOME = '/var/cache-of-user'
      expect(defaultPkiTemplateDir()).toBe('/var/cache-of-user/ob-console/sandbox-pki-template')
      process.env.OB_CONSOLE_PKI_TEMPLATE_DIR = '/elsewhere/tpl'
      expect(defaultPkiTemplateDir()).toBe('/elsewhere/tpl')
    } finally {
      for (const [k, v] of [
        ['OB_CONSOLE_PKI_TEMPLATE_DIR', saved.t],
        ['XDG_CACHE_HOME', saved.x],
      ] as const) {
        if (v === undefined) delete process.env[k]
        else process.env[k] = v
      }
    }
  })
})
