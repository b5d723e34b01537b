import { mkdirSync, rmSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

/**
 * Layout of the sandbox's data directory. Everything the sandbox generates or remembers lives here;
 * delete the directory to start from nothing.
 *
 *   pki/            root and issuing CA, the servers' TLS certificate (keys mode 0600)
 *   directory/      directory signing key, organisations and software statements (one JSON file per TPP)
 *   auth/           authorisation-server signing keys, registered clients
 *   state/          consents, payments, idempotency keys, PSU-absent counters, clock offset
 */
export interface DataDirLayout {
  root: string
  pki: string
  directory: string
  auth: string
  state: string
}

export function defaultDataDir(): string {
  return process.env.OB_CONSOLE_SANDBOX_DIR ?? join(homedir(), '.ob-console', 'local-sandbox')
}

export function dataDirLayout(root: string): DataDirLayout {
  const abs = resolve(root)
  const layout = {
    root: abs,
    pki: join(abs, 'pki'),
    directory: join(abs, 'directory'),
    auth: join(abs, 'auth'),
    state: join(abs, 'state'),
  }
  for (const dir of Object.values(layout)) mkdirSync(dir, { recursive: true, mode: 0o700 })
  return layout
}

/**
 * Empties a data directory for `ob-console sandbox --fresh`: removes the folders the sandbox keeps there
 * (pki, directory, auth, state) and nothing else, so the next start generates a new PKI and keys. Every
 * starter kit issued from the old directory stops working.
 */
export function resetDataDir(root: string): void {
  const abs = resolve(root)
  for (const folder of ['pki', 'directory', 'auth', 'state'])
    rmSync(join(abs, folder), { recursive: true, force: true })
}
