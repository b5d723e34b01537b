// Collects the secrets one redaction pass met, for the list a view shows next to the masked text (one
// Reveal per item) and for finding the one value a Reveal asks for.
import { type MaskContext, type SecretFound, type SecretKind, secretRef } from './secret-mask.ts'

/** A secret as a view lists it (the shape of the contract's SecretItemDto). */
export interface SecretItem {
  ref: string
  kind: SecretKind
  name: string
  where: string
  shown: string
  revealed: boolean
  revealable: boolean
}

/**
 * Each secret's ref, by the object a pass found it as: a step's output is masked once and its secrets told again
 * to every later pass's collector (services/flow-masking.ts), which took an HMAC of each on every progress event.
 */
const refs = new WeakMap<SecretFound, string>()

function refOf(s: SecretFound): string {
  let ref = refs.get(s)
  if (ref === undefined) refs.set(s, (ref = secretRef(s.value)))
  return ref
}

/**
 * One per view: `ctx(where)` gives the context a part of the view is redacted with (the values the user
 * revealed, and a `found` that notes each secret). A value met twice in the same place is listed once.
 *
 * @example const c = new SecretCollector(revealed); const body = redactBody(text, type, c.ctx('response body')); c.items()
 */
export class SecretCollector {
  readonly #items = new Map<string, SecretItem & { value: string }>()

  constructor(private readonly revealed?: ReadonlySet<string>) {}

  ctx(where: string): MaskContext {
    return {
      ...(this.revealed ? { revealed: this.revealed } : {}),
      found: (s) => {
        const ref = refOf(s)
        const key = `${where}\u0000${ref}`
        if (this.#items.has(key)) return
        this.#items.set(key, {
          ref,
          kind: s.kind,
          name: s.name,
          where,
          shown: s.shown,
          revealed: s.revealed,
          revealable: s.kind !== 'private-key',
          value: s.value,
        })
      },
    }
  }

  /** The items, without their values (safe to hand out); `distinct`: each value once, where first met. */
  items(options: { distinct?: boolean } = {}): SecretItem[] {
    const seen = new Set<string>()
    const out: SecretItem[] = []
    for (const { value: _value, ...item } of this.#items.values()) {
      if (options.distinct && seen.has(item.ref)) continue
      seen.add(item.ref)
      out.push(item)
    }
    return out
  }

  /** The item with this ref, and its value (main side only). */
  find(ref: string): { item: SecretItem; value: string } | undefined {
    for (const { value, ...item } of this.#items.values()) if (item.ref === ref) return { item, value }
    return undefined
  }

  /** True when something secret is still masked or removed. */
  anyHidden(): boolean {
    for (const i of this.#items.values()) if (!i.revealed) return true
    return false
  }
}
