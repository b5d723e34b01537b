import { join } from 'node:path'
import { JsonFile } from '../../store/json-file.ts'

type Entries = Record<string, Record<string, number>>

/**
 * The replay cache of registration JWT ids: per software id, each `jti` seen with the `exp` of its JWT.
 * Persisted in `auth/registration-jti.json`, so a replay is refused after a restart too; an entry is
 * forgotten once its JWT has expired (it could not be replayed any more anyway).
 */
export class RegistrationJtiCache {
  readonly #file: JsonFile<Entries>
  #entries: Entries

  constructor(authDir: string) {
    this.#file = new JsonFile<Entries>(join(authDir, 'registration-jti.json'), () => ({}))
    this.#entries = this.#file.read()
  }

  /** True when `jti` was already used by this software (and has not expired). */
  seen(softwareId: string, jti: string, nowSeconds: number): boolean {
    const exp = this.#entries[softwareId]?.[jti]
    return exp !== undefined && exp > nowSeconds
  }

  /** Records `jti` until `exp`, dropping expired entries. */
  remember(softwareId: string, jti: string, exp: number, nowSeconds: number): void {
    const pruned: Entries = {}
    for (const [software, jtis] of Object.entries(this.#entries)) {
      const live = Object.entries(jtis).filter(([, e]) => e > nowSeconds)
      if (live.length) pruned[software] = Object.fromEntries(live)
    }
    pruned[softwareId] = { ...pruned[softwareId], [jti]: exp }
    this.#entries = pruned
    this.#file.write(pruned)
  }
}
