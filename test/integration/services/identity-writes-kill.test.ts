import { spawn } from 'node:child_process'
import { createPublicKey, X509Certificate } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSelfSignedCertificate } from '../../../src-main/certificates/generate.ts'
import { IdentityVault } from '../../../src-main/certificates/identity-vault.ts'
import { createKeyFileEncryptor } from '../../../src-main/certificates/key-file-encryptor.ts'
import { EncryptedFileSecretStore } from '../../../src-main/certificates/secret-store.ts'
import { systemClock } from '../../../src-main/core/clock.ts'
import { EnvironmentsService } from '../../../src-main/services/environments-service.ts'
import { createFileSettingsStore } from '../../../src-main/services/persistence/settings-store.ts'
import { TppsService } from '../../../src-main/services/tpps-service.ts'

const WRITER_SOURCE = join(import.meta.dirname, 'support', 'identity-writer.ts')
const KILLS = 30
const dirs: string[] = []
/** The writer as one plain ES module (packages left to node_modules): it starts in a fraction of the time tsx takes, so 30 runs stay short. */
let writer: string
beforeAll(async () => {
  // Inside node_modules, so the bundle's imports of packages resolve; .cache is not there on a fresh clone.
  const cache = join(import.meta.dirname, '..', '..', '..', 'node_modules', '.cache')
  mkdirSync(cache, { recursive: true })
  const out = mkdtempSync(join(cache, 'identity-writer-'))
  dirs.push(out)
  writer = join(out, 'identity-writer.mjs')
  await build({
    entryPoints: [WRITER_SOURCE],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile: writer,
    logLevel: 'silent',
  })
})
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

function open(dir: string) {
  const store = createFileSettingsStore(join(dir, 'store'))
  const secrets = new EncryptedFileSecretStore(
    join(dir, 'secrets'),
    createKeyFileEncryptor(join(dir, 'secrets', 'master.key')),
  )
  const tpps = new TppsService(
    store,
    secrets,
    new EnvironmentsService(store),
    async () => {
      throw new Error('no directory')
    },
    systemClock(),
  )
  const vault = new IdentityVault({ file: join(dir, 'identities.json'), secrets, clock: systemClock() })
  return { tpps, vault }
}

const spki = (pem: string) => createPublicKey(pem).export({ format: 'der', type: 'spki' }).toString('base64')

/**
 * Runs the writer and kills it (SIGKILL) at a random point: with `afterRounds` 0, up to 300 ms after it
 * printed `ready` (in its first round or before); otherwise once it has finished that many rounds, after a
 * random fraction of the last round's duration (so inside the next round, wherever the machine's load puts
 * it). Resolves with the rounds it completed.
 */
function runAndKill(dir: string, tppId: string, materialFile: string, afterRounds: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [writer, dir, tppId, materialFile], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    let timer: NodeJS.Timeout | undefined
    const guard = setTimeout(() => child.kill('SIGKILL'), 60_000)
    const killIn = (ms: number) => {
      timer ??= setTimeout(() => child.kill('SIGKILL'), Math.floor(ms))
    }
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      if (timer) return
      if (afterRounds === 0) {
        if (out.includes('ready\n')) killIn(Math.random() * 300)
        return
      }
      const round = new RegExp(`^w${afterRounds - 1} (\\d+)$`, 'm').exec(out)
      if (round) killIn(Math.random() * Number(round[1]))
    })
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString()
    })
    child.on('exit', (code, signal) => {
      clearTimeout(guard)
      if (timer) clearTimeout(timer)
      if (signal !== 'SIGKILL')
        return reject(new Error(`the writer stopped by itself (code ${code}): ${err.slice(0, 2000)}`))
      resolve((out.match(/^w\d+ \d+$/gm) ?? []).length)
    })
  })
}

describe('identity and key writes survive a killed process', () => {
  it(`leaves the old or the new identity readable, whatever the point the writer is killed at (${KILLS} kills)`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kill-writes-'))
    dirs.push(dir)
    const material = await Promise.all(
      ['CN=Kill test A', 'CN=Kill test B'].map((subject) =>
        createSelfSignedCertificate({ subject, keyType: 'EC-P256' }),
      ),
    )
    const materialFile = join(dir, 'material.json')
    writeFileSync(materialFile, JSON.stringify(material.map((m) => ({ certPem: m.certPem, keyPem: m.keyPem }))))
    const known = new Set(material.map((m) => spki(m.certPem)))
    const { tpps, vault } = open(dir)
    const tpp = tpps.save({ name: 'Kill test', redirectUris: ['https://app.example/cb'] })
    await tpps.importPem({
      tppId: tpp.id,
      role: 'transport',
      certificatePem: material[0]!.certPem,
      keyPem: material[0]!.keyPem,
    })
    await vault.import({ label: 'first', certPem: material[0]!.certPem, keyPem: material[0]!.keyPem })

    let afterARound = 0
    for (let k = 0; k < KILLS; k++) {
      // In the first round (or before it), the second or the third, at a random point of it.
      const done = await runAndKill(dir, tpp.id, materialFile, k % 3)
      if (done > 0) afterARound++
      const { tpps: t, vault: v } = open(dir)
      // The TPP identity: its record and its transport key are readable, and they belong together.
      const m = await t.material(tpp.id)
      const certKey = spki(
        new X509Certificate(m.transport!.certPem).publicKey.export({ format: 'pem', type: 'spki' }) as string,
      )
      expect(known.has(certKey), `kill ${k}: the certificate is neither the old nor the new one`).toBe(true)
      expect(spki(m.transport!.keyPem), `kill ${k}: the key is not the certificate's`).toBe(certKey)
      // The vault: readable, at least one identity, each with its key.
      const listed = v.list()
      expect(listed.length, `kill ${k}: the vault lost every identity`).toBeGreaterThan(0)
      for (const identity of listed) {
        const tls = await v.tlsMaterial(identity.id)
        expect(spki(tls.keyPem)).toBe(
          spki(new X509Certificate(tls.certPem).publicKey.export({ format: 'pem', type: 'spki' }) as string),
        )
      }
    }
    // Two kills in three landed after the writer had replaced the identity at least once.
    expect(afterARound).toBeGreaterThanOrEqual(Math.floor((KILLS * 2) / 3))
  }, 600_000)
})
