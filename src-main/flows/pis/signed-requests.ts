import { randomUUID } from 'node:crypto'
import { apiUrl, bearerPost } from '../common/bank-requests.ts'
import { DISCOVERY_STEP } from '../common/discovery.ts'
import type { FlowContext, FlowResponse } from '../flow-context.ts'
import type { StepScope } from '../step-machine.ts'

/**
 * A signed PIS POST: the exact bytes sent are the bytes signed (`x-jws-signature`), with an
 * `x-idempotency-key`. `resend`: the idempotency key and body of an earlier send of the same request; the
 * client then retries a lost answer with that same key.
 */
export async function signedPost(
  ctx: FlowContext,
  scope: StepScope,
  path: string,
  token: string,
  payload: unknown,
  label: string,
  resend?: { idempotencyKey: string; body: string },
): Promise<{ res: FlowResponse; idempotencyKey: string }> {
  const body = resend?.body ?? JSON.stringify(payload)
  const idempotencyKey = resend?.idempotencyKey ?? randomUUID()
  const res = await bearerPost(ctx, scope, apiUrl(ctx, 'pis', path), token, body, label, {
    headers: { 'x-idempotency-key': idempotencyKey, 'x-jws-signature': await ctx.signer.detachedJws(body) },
    retry: !!resend,
  })
  return { res, idempotencyKey }
}

/** The checks of a PIS answer's detached `x-jws-signature` against the bank's JWKS (from discovery). */
export async function responseSignatureChecks(ctx: FlowContext, scope: StepScope, res: FlowResponse) {
  const discovery = scope.output(DISCOVERY_STEP)
  return ctx.signer.verifyDetachedJws(res.headers['x-jws-signature'], res.text, discovery.jwks_uri)
}
