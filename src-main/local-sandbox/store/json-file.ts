import { readFileSync } from 'node:fs'
import { writeFileAtomic } from '../../plumbing/atomic-file.ts'

/**
 * A JSON document on disk, written atomically (write to a temporary file, then rename), so a crash or
 * a kill never leaves half a file behind. Reads fail loudly with the path when the file is corrupt,
 * rather than silently starting empty and losing data.
 */
export class JsonFile<T> {
  constructor(
    readonly path: string,
    private readonly empty: () => T,
  ) {}

  read(): T {
    let text: string
    try {
      text = readFileSync(this.path, 'utf8')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return this.empty()
      throw err
    }
    try {
      return JSON.parse(text) as T
    } catch (err) {
      throw new Error(
        `${this.path} is not valid JSON (${(err as Error).message}). Fix or move the file aside; the sandbox will not overwrite it.`,
        { cause: err },
      )
    }
  }

  /** Replaces the file with `value` (flushed temporary file, then rename: plumbing/atomic-file.ts); returns the bytes written. */
  write(value: T): number {
    const bytes = Buffer.from(JSON.stringify(value, null, 2) + '\n', 'utf8')
    writeFileAtomic(this.path, bytes, { mode: 0o600, backup: false })
    return bytes.length
  }
}
