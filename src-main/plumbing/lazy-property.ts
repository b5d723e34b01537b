/**
 * Gives `target` an enumerable property `key` computed by `compute` when it is first read, and kept then as a
 * plain value: for a contract object with a costly part that many callers never read (a body's text decoded from
 * its bytes, a certificate's inspection). Whatever reads own enumerable properties (JSON.stringify,
 * structuredClone, V8's serialiser behind Electron's IPC, a test's toEqual) reads it too.
 *
 * @example lazyProperty(dto, 'certificate', () => inspectCertificate(parse(pem), now))
 */
export function lazyProperty<T extends object, K extends keyof T>(target: T, key: K, compute: () => T[K]): T {
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get() {
      const value = compute()
      Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true })
      return value
    },
  })
  return target
}
