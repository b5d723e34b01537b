import { isoDateTime } from '../../clock.ts'
import { ObApiError } from '../../http/ob-error.ts'
import { IDEMPOTENCY_WINDOW_MS } from '../store/idempotency-store.ts'

/**
 * The same `x-idempotency-key` came back with another body: 400 `U006` naming the resource the key
 * created and when it becomes free again. The resource is not touched (v4.0: the ASPSP must not
 * modify it).
 */
export function idempotencyConflict(key: string, kind: string, resourceId: string, firstUsedAtMs: number): ObApiError {
  return new ObApiError(400, {
    code: 'U006',
    path: 'x-idempotency-key',
    message: `x-idempotency-key "${key}" was already used with another body (it created ${kind} ${resourceId}); a key may only be reused to retry the identical request. Use a new key, or wait until ${isoDateTime(new Date(firstUsedAtMs + IDEMPOTENCY_WINDOW_MS))} when this one expires`,
  })
}
