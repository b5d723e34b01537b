import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { EnvironmentDto } from '../contract/environments.ts'

/**
 * The file of an environment's CA bundle, for the exports that name it (curl's `--cacert`, newman's
 * `--ssl-extra-ca-certs`, HAR's `_trust.caFile`): `<data dir>/ca-bundles/<environment id>.pem`, written when
 * absent or different (certificates only: nothing secret). Undefined when the environment has no bundle.
 *
 * @example caBundleFile(dataDir, env) // '/home/me/.local/share/ob-console/ca-bundles/env-1.pem'
 */
export function caBundleFile(dataDir: string, env: EnvironmentDto): string | undefined {
  if (!env.caBundlePem) return undefined
  const dir = join(dataDir, 'ca-bundles')
  const file = join(dir, `${env.id.replace(/[^A-Za-z0-9._-]/g, '_')}.pem`)
  let current: string | undefined
  try {
    current = readFileSync(file, 'utf8')
  } catch {
    current = undefined
  }
  if (current !== env.caBundlePem) {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    writeFileSync(file, env.caBundlePem, { mode: 0o644 })
  }
  return file
}
