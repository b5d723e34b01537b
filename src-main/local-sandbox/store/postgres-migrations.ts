import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ClientBase } from 'pg'
import { seedFile } from '../resources.ts'

/** The numbered SQL files that build the PostgreSQL store's schema: `resources/local-sandbox/migrations/NNN-name.sql`. */
export const MIGRATIONS_DIR = seedFile('migrations')

/** The advisory lock every instance takes to migrate (and, later, to create shared state once). */
export const MIGRATION_LOCK = 0x0b5a_4d01

export interface Migration {
  version: number
  name: string
  sql: string
}

/** The migrations on disk, in order; a file not named `NNN-name.sql` is refused by name. */
export function migrationsOnDisk(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((file) => {
      const m = /^(\d{3})-([a-z0-9-]+)\.sql$/.exec(file)
      if (!m) throw new Error(`${join(dir, file)} is not named NNN-name.sql; rename it (e.g. 002-add-index.sql)`)
      return { version: Number(m[1]), name: m[2]!, sql: readFileSync(join(dir, file), 'utf8') }
    })
}

/**
 * Applies the migrations the database lacks, each in its own transaction, under `pg_advisory_lock`: of
 * several instances starting at once, one migrates and the others wait, then find nothing to do.
 * Returns the versions applied now.
 */
export async function migrate(client: ClientBase, migrations = migrationsOnDisk()): Promise<number[]> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK])
  try {
    await client.query(
      'CREATE TABLE IF NOT EXISTS sandbox_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    )
    const done = new Set(
      (await client.query<{ version: number }>('SELECT version FROM sandbox_migrations')).rows.map((r) => r.version),
    )
    const applied: number[] = []
    for (const m of migrations) {
      if (done.has(m.version)) continue
      await client.query('BEGIN')
      try {
        await client.query(m.sql)
        await client.query('INSERT INTO sandbox_migrations (version, name) VALUES ($1, $2)', [m.version, m.name])
        await client.query('COMMIT')
      } catch (err) {
        await client.query('ROLLBACK')
        throw new Error(`migration ${m.version}-${m.name} failed: ${(err as Error).message}`, { cause: err })
      }
      applied.push(m.version)
    }
    return applied
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK])
  }
}
