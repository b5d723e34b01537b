import { join } from 'node:path'
import { JournaledMap } from '../../store/journaled-map.ts'

/** Per software id: each `jti` seen, with the `exp` of its JWT. */
type Jtis = Record<string, number>

/**
 * The replay cache of registration JWT ids: per software id, each `jti` seen with the `exp` of its JWT.
 * Persisted in `auth/registration-jti.json` and its journal (see JournaledMap), so a replay is refused
 * after a restart too; an entry is forgotten once its JWT has expired (it could not be replayed any more
 * anyway).
 */
export class RegistrationJtiCache {
  readonly #entries: JournaledMap<Jtis>
  /** The latest time `remember` was told, for dropping expired entries from the snapshot. */
  #nowSeconds = 0

  constructor(authDir: string) {
    this.#entries = new JournaledMap<Jtis>(join(authDir, 'registration-jti.json'), {
      keep: (jtis) => Object.values(jtis).some((exp) => exp > this.#nowSeconds),
    })
  }

  /** True when `jti` was already used by this software (and has not expired). */
  seen(softwareId: string, jti: string, nowSeconds: number): boolean {
    const exp = this.#entries.get(softwareId)?.[jti]
    return exp !== undefined && exp > nowSeconds
  }

  /** Records `jti` until `exp`, dropping this software's expired entries. */
  remember(softwareId: string, jti: string, exp: number, nowSeconds: number): void {
    this.#nowSeconds = Math.max(this.#nowSeconds, nowSeconds)
    const live = Object.entries(this.#entries.get(softwareId) ?? {}).filter(([, e]) => e > nowSeconds)
    this.#entries.set(softwareId, { ...Object.fromEntries(live), [jti]: exp })
  }
}
