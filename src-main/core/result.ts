import type { Result } from '../contract/errors.ts'
import { toAppError } from './app-error.ts'

export type { Result }

/** A successful result. */
export function ok<T>(value: T): Result<T> {
  return { ok: true, value }
}

/** A failed result from anything thrown (AppErrors keep their code; anything else becomes INTERNAL). */
export function fail<T = never>(error: unknown, what?: string): Result<T> {
  return { ok: false, error: toAppError(error, what).toData() }
}

/**
 * Runs `fn` and returns its value as a Result: the one place where throws become results at the
 * contract boundary.
 *
 * @example const result = await attempt(() => inspectCertificatePem(pem), 'Inspecting the certificate failed')
 */
export async function attempt<T>(fn: () => T | Promise<T>, what?: string): Promise<Result<T>> {
  try {
    return ok(await fn())
  } catch (err) {
    return fail(err, what)
  }
}
