import { statSync } from 'node:fs'

/**
 * A file's (or directory's) version: inode, mtime and size; undefined when it does not exist. Stores read
 * a file again only when this changed (an atomic write replaces the inode, so every write changes it).
 */
export function fileVersion(path: string): string | undefined {
  const st = statSync(path, { throwIfNoEntry: false })
  return st ? `${st.ino}:${st.mtimeMs}:${st.size}` : undefined
}

/** Freezes a value and everything in it: cached values are shared by every reader. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const v of Object.values(value)) deepFreeze(v)
  }
  return value
}
