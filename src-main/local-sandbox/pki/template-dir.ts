import { homedir } from 'node:os'
import { join } from 'node:path'

/**
 * A PKI template: the bank's side of a sandbox's keys and certificates (root and issuing CA, the servers'
 * TLS certificate, the authorisation server's and the directory's signing keys), kept once and copied
 * into each *fresh* data directory, so a throwaway sandbox (`ob-console ais --env local`) does not mint
 * five RSA keys on every run. TPPs onboarded in such a sandbox still get keys of their own.
 *
 * It lives in the user's cache directory (never in the repository): `$OB_CONSOLE_PKI_TEMPLATE_DIR`, else
 * `$XDG_CACHE_HOME/ob-console/sandbox-pki-template`, else `~/.cache/ob-console/sandbox-pki-template`.
 * The folder is mode 0700 and its keys 0600, as in a data directory. Delete it to have the next fresh
 * sandbox mint new ones.
 */
export function defaultPkiTemplateDir(): string {
  if (process.env.OB_CONSOLE_PKI_TEMPLATE_DIR) return process.env.OB_CONSOLE_PKI_TEMPLATE_DIR
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache')
  return join(cache, 'ob-console', 'sandbox-pki-template')
}
