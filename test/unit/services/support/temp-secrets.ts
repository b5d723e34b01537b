import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createKeyFileEncryptor } from '../../../../src-main/certificates/key-file-encryptor.ts'
import { EncryptedFileSecretStore } from '../../../../src-main/certificates/secret-store.ts'

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

/** Removes every folder `tempSecrets` made (for `afterAll`). */
export function removeTempSecrets(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
}
