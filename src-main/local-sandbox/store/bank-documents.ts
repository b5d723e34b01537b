import { chmodSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { withDirLock } from '../pki/dir-lock.ts'

/** One bank document: its name (a data-directory-relative path, e.g. `pki/root-ca.pem`) and its text. */
export interface BankDocument {
  name: string
  text: string
}

/**
 * The bank's identity as named texts: the PKI (`pki/…`), the authorisation server's and the directory's
 * signing keys (`auth/signing-key.json`, `directory/signing-key.json`), oidc-provider's cookie keys
 * (`auth/cookie-keys.json`) and the directory's TPP records (`directory/tpps/<softwareId>.json`). A name
 * is the path the file has in a data directory. The embedded store keeps them there as files; a database
 * store keeps them in a table, so every instance on it serves the same bank.
 */
export interface BankDocuments {
  /** True when the documents are the data directory's files (the embedded store). */
  readonly inDataDir: boolean
  /** The text of `name`, or undefined when there is none. */
  read(name: string): Promise<string | undefined>
  /** Replaces (or creates) `name`, atomically; `secret` marks a private key (mode 0600 as a file). */
  write(name: string, text: string, options?: { secret?: boolean }): Promise<void>
  /** Every document whose name starts with `prefix`, by name. */
  list(prefix: string): Promise<BankDocument[]>
  /**
   * Runs `fn` holding the bank-wide lock for create-once (across processes): of several instances starting
   * at once, one creates the identity and the others then load it.
   */
  withLock<T>(fn: () => Promise<T>): Promise<T>
  /** Where the documents under `prefix` live and how to remove them, for messages that name a fix. */
  locate(prefix: string): { where: string; remove: string }
}

/**
 * The JSON document `name`, created by `make` under the bank-wide lock when it does not exist yet: the
 * first of several instances starting at once makes it, the others read the same. A document that is
 * not JSON is refused with its location (it is never overwritten).
 */
export async function loadOrCreateJson<T>(docs: BankDocuments, name: string, make: () => Promise<T>): Promise<T> {
  const parse = (text: string): T => {
    try {
      return JSON.parse(text) as T
    } catch (err) {
      const { where } = docs.locate(name)
      throw new Error(
        `${where} is not valid JSON (${(err as Error).message}). Fix or delete it; the sandbox will not overwrite it.`,
        { cause: err },
      )
    }
  }
  const existing = await docs.read(name)
  if (existing !== undefined) return parse(existing)
  return docs.withLock(async () => {
    const again = await docs.read(name)
    if (again !== undefined) return parse(again)
    const made = await make()
    await docs.write(name, JSON.stringify(made, null, 2) + '\n', { secret: true })
    return made
  })
}

const NAME = /^[a-z]+(\/[A-Za-z0-9][A-Za-z0-9._-]*)+$/

/** Refuses a name that is not a relative path of plain segments (no `..`, no absolute path). */
export function checkDocumentName(name: string): string {
  if (!NAME.test(name) || name.split('/').some((s) => s === '..' || s === '.'))
    throw new RangeError(`"${name}" is not a bank document name (a relative path such as pki/root-ca.pem)`)
  return name
}

/**
 * The embedded store's bank documents: the data directory's files, as the sandbox always wrote them
 * (same paths; written to a temporary file then renamed; private keys mode 0600, the rest 0644 for
 * certificates or 0600 for records). The lock is the data directory's `pki/.lock` (see dir-lock.ts), so a
 * sandbox and `ob-console sandbox --issue-tpp` on one data directory never make two identities.
 */
export class FileBankDocuments implements BankDocuments {
  readonly inDataDir = true

  constructor(readonly root: string) {}

  path(name: string): string {
    return join(this.root, checkDocumentName(name))
  }

  async read(name: string): Promise<string | undefined> {
    try {
      return readFileSync(this.path(name), 'utf8')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw err
    }
  }

  async write(name: string, text: string, options: { secret?: boolean } = {}): Promise<void> {
    const path = this.path(name)
    const mode = options.secret || !name.endsWith('.pem') ? 0o600 : 0o644
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
    const tmp = `${path}.${process.pid}.tmp`
    writeFileSync(tmp, text, { mode })
    chmodSync(tmp, mode)
    renameSync(tmp, path)
  }

  async list(prefix: string): Promise<BankDocument[]> {
    const slash = prefix.lastIndexOf('/')
    const folder = prefix.slice(0, slash + 1)
    let names: string[]
    try {
      names = readdirSync(join(this.root, folder))
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw err
    }
    const out: BankDocument[] = []
    for (const file of names.sort()) {
      const name = folder + file
      if (!name.startsWith(prefix) || file.endsWith('.tmp') || !NAME.test(name)) continue
      const text = await this.read(name)
      if (text !== undefined) out.push({ name, text })
    }
    return out
  }

  withLock<T>(fn: () => Promise<T>): Promise<T> {
    mkdirSync(join(this.root, 'pki'), { recursive: true, mode: 0o700 })
    return withDirLock(join(this.root, 'pki', '.lock'), fn)
  }

  locate(prefix: string): { where: string; remove: string } {
    const where = join(this.root, prefix).replace(/\/+$/, '')
    return { where, remove: prefix.endsWith('/') ? 'delete that directory' : 'delete that file' }
  }
}
