import { EmbeddedStore, type EmbeddedStorePaths } from './embedded-store.ts'
import type { SandboxStore } from './sandbox-store.ts'

/**
 * How `--store` / `OB_SANDBOX_STORE` names a backend: absent or `embedded` (the data directory's files,
 * one process), or a `postgres://` / `postgresql://` URL (a PostgreSQL database several instances share).
 */
export type StoreSpec = { kind: 'embedded' } | { kind: 'postgres'; url: string }

/** The spec of `text`, or a sentence saying what is accepted. */
export function parseStoreSpec(text: string | undefined): StoreSpec | string {
  if (text === undefined || text === '' || text === 'embedded') return { kind: 'embedded' }
  if (/^postgres(ql)?:\/\//.test(text)) {
    try {
      new URL(text)
    } catch {
      return `the store URL ${redactStoreUrl(text)} is not a valid URL; give postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`
    }
    return { kind: 'postgres', url: text }
  }
  return `the store "${redactStoreUrl(text)}" is neither "embedded" nor a postgres:// URL; give postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE, or leave it out for the data directory's files`
}

/** `url` with its password replaced by `***`, for messages and logs. */
export function redactStoreUrl(url: string): string {
  return url.replace(/^([a-z]+:\/\/[^:/@]*:)[^@]*@/i, '$1***@')
}

/**
 * Opens the backend `spec` names: the embedded one over `paths`, or a pool to PostgreSQL with its
 * migrations applied (pg is loaded only then). A PostgreSQL failure says which store could not be opened.
 */
export async function openSandboxStore(spec: StoreSpec, paths: EmbeddedStorePaths): Promise<SandboxStore> {
  if (spec.kind === 'embedded') return new EmbeddedStore(paths)
  const { PostgresStore } = await import('./postgres-store.ts')
  try {
    return await PostgresStore.open(spec.url)
  } catch (err) {
    throw new Error(`could not open the sandbox store ${redactStoreUrl(spec.url)}: ${(err as Error).message}`, {
      cause: err,
    })
  }
}

/** Applies the PostgreSQL store's migrations the database lacks (`ob-console sandbox migrate`); says what it did. */
export async function migrateSandboxStore(url: string): Promise<string> {
  const [{ loadPg }, { migrate }] = await Promise.all([
    import('./postgres-store.ts'),
    import('./postgres-migrations.ts'),
  ])
  const pg = loadPg()
  const client = new pg.Client({ connectionString: url })
  try {
    await client.connect()
    const applied = await migrate(client)
    return applied.length
      ? `sandbox store ${redactStoreUrl(url)}: applied migration(s) ${applied.join(', ')}`
      : `sandbox store ${redactStoreUrl(url)}: up to date, nothing to apply`
  } catch (err) {
    throw new Error(`could not migrate the sandbox store ${redactStoreUrl(url)}: ${(err as Error).message}`, {
      cause: err,
    })
  } finally {
    await client.end().catch(() => undefined)
  }
}
