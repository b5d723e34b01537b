// Child process of identity-writes-kill.test.ts: re-imports a TPP's transport key and an identity of the
// vault again and again, alternating two certificates, until it is killed. Prints `ready` once set up and
// `w<n> <ms>` after each complete round, so the parent can kill it at a random point of a round.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { IdentityVault } from '../../../../src-main/certificates/identity-vault.ts'
import { createKeyFileEncryptor } from '../../../../src-main/certificates/key-file-encryptor.ts'
import { EncryptedFileSecretStore } from '../../../../src-main/certificates/secret-store.ts'
import { systemClock } from '../../../../src-main/core/clock.ts'
import { EnvironmentsService } from '../../../../src-main/services/environments-service.ts'
import { createFileSettingsStore } from '../../../../src-main/services/persistence/settings-store.ts'
import { TppsService } from '../../../../src-main/services/tpps-service.ts'

const [dir, tppId, materialFile] = process.argv.slice(2) as [string, string, string]
const material = JSON.parse(readFileSync(materialFile, 'utf8')) as Array<{ certPem: string; keyPem: string }>
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

process.stdout.write('ready\n')
let started = performance.now()
for (let i = 0; i < 100_000; i++) {
  const m = material[i % material.length]!
  await tpps.importPem({ tppId, role: 'transport', certificatePem: m.certPem, keyPem: m.keyPem })
  const added = await vault.import({ label: `round ${i}`, certPem: m.certPem, keyPem: m.keyPem })
  for (const old of vault.list()) if (old.id !== added.id) await vault.remove(old.id)
  // The round's number and how long it took: the parent kills within the next round from it.
  const now = performance.now()
  process.stdout.write(`w${i} ${Math.round(now - started)}\n`)
  started = now
}
