/**
 * Gives `target` an enumerable property `key` computed by `compute` when it is first read, and kept then as a
 * plain value: for a contract object with a costly part that many callers never read (a body's text decoded from
 * its bytes, a certificate's inspection). Whatever reads own enumerable properties (JSON.stringify,
 * structuredClone, V8's serialiser behind Electron's IPC, a test's toEqual) reads it too.
 *
 * A getter of the object's own gives the object a hidden class of its own, made in V8's old generation, which
 * holds `compute` and what it closes over through every young-generation collection until a full one. So it is
 * for objects made when asked for (an exchange's detail, an identity's answer), never for one made for every
 * exchange or page: the engine's responses keep their parse behind a class's getter instead (`ParsedResponse`
 * in services/http-engine.ts, docs/benchmarks.md's ninth section of 2026-11-29).
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
