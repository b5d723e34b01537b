import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createKeyFileEncryptor } from '../../../../src-main/certificates/key-file-encryptor.ts'
import { EncryptedFileSecretStore } from '../../../../src-main/certificates/secret-store.ts'
import { fixedClock } from '../../../../src-main/core/clock.ts'
import { EnvironmentsService } from '../../../../src-main/services/environments-service.ts'
import { createFileSettingsStore } from '../../../../src-main/services/persistence/settings-store.ts'
import { TppsService } from '../../../../src-main/services/tpps-service.ts'

const made: string[] = []

/** A new temporary folder with an encrypted secret store in `secrets/` (its master key a file beside them). */
export function tempSecrets(prefix: string): { dir: string; secrets: EncryptedFileSecretStore } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  made.push(dir)
  const secrets = new EncryptedFileSecretStore(
    join(dir, 'secrets'),
    createKeyFileEncryptor(join(dir, 'secrets', 'master.key')),
  )
  return { dir, secrets }
}

/** A TPP identities service on a new temporary settings store and secret store, with no directory to onboard from. */
export function tempTppsService(prefix: string) {
  const { dir, secrets } = tempSecrets(prefix)
  const store = createFileSettingsStore(join(dir, 'store'))
  const envs = new EnvironmentsService(store)
  const clock = fixedClock(Date.now())
  const tpps = new TppsService(
    store,
    secrets,
    envs,
    async () => {
      throw new Error('no directory in this test')
    },
    clock,
  )
  return { tpps, dir, store, envs, secrets, clock }
}

/** Removes every folder `tempSecrets` (and so `tempTppsService`) made (for `afterAll`). */
export function removeTempStores(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
}
