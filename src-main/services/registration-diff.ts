/**
 * What the bank did with the claims a registration (or its update) sent: each claim it registered with
 * another value, or left out of its answer. A bank may take a claim from the software statement instead
 * (`client_name`), narrow a scope or keep one redirect URI: the console names each such claim rather than
 * report the update as done as asked.
 */
import type { ClaimChangeDto } from '../contract/api.ts'

/** Claims of the request JWT itself, never part of the registration the bank keeps. */
const ENVELOPE = new Set(['iss', 'aud', 'iat', 'exp', 'nbf', 'jti', 'software_statement'])
/** Claims whose values are sets: order does not matter. */
const LISTS = new Set(['redirect_uris', 'grant_types', 'response_types'])

/** A value in a form that compares equal when it means the same (sets sorted, scopes split). */
function normal(claim: string, v: unknown): unknown {
  if (claim === 'scope' && typeof v === 'string') return v.split(/\s+/).filter(Boolean).sort()
  if (LISTS.has(claim) && Array.isArray(v)) return [...v].map(String).sort()
  return v
}

/** Each claim `sent` that `registered` (the bank's answer) holds with another value or not at all. */
export function claimsChangedByBank(
  sent: Record<string, unknown>,
  registered: Record<string, unknown>,
): ClaimChangeDto[] {
  const changes: ClaimChangeDto[] = []
  for (const [claim, value] of Object.entries(sent)) {
    if (ENVELOPE.has(claim) || value === undefined) continue
    if (!(claim in registered)) {
      changes.push({ claim, sent: value })
      continue
    }
    if (JSON.stringify(normal(claim, value)) !== JSON.stringify(normal(claim, registered[claim])))
      changes.push({ claim, sent: value, registered: registered[claim] })
  }
  return changes
}

/** `client_name: sent "A"; the bank registered "B"`: one line per claim, for a terminal or a note. */
export function claimChangeLines(changes: ClaimChangeDto[]): string[] {
  return changes.map(
    (c) =>
      `${c.claim}: sent ${JSON.stringify(c.sent)}; ${'registered' in c ? `the bank registered ${JSON.stringify(c.registered)}` : 'the bank did not register it'}`,
  )
}
