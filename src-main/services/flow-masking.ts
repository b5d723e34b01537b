import type { AisFlowInput } from '../contract/api.ts'
import type { EnvironmentDto } from '../contract/environments.ts'
import type { SecretItemDto } from '../contract/exchange.ts'
import type { FlowState, StepState } from '../contract/flows.ts'
import { AppError } from '../core/app-error.ts'
import { redactJson } from '../core/redact.ts'
import { redactText, redactUrl } from '../core/redact-text.ts'
import { SecretCollector } from '../core/secret-collector.ts'
import type { MaskContext, SecretFound } from '../core/secret-mask.ts'

/**
 * The PSU's IP address goes to the bank only when the PSU is present and the address is known. The local
 * sandbox's PSU logs in from this computer, so there it is the loopback address; any other bank needs it
 * asked for: the console never sends a made-up address, and without the header the bank counts a call as
 * made without the PSU (four a day, on four endpoints only).
 */
export function withPsuAddress(input: AisFlowInput, env: EnvironmentDto): AisFlowInput {
  if (!input.psuPresent || input.psuIpAddress?.trim()) return input
  if (env.kind === 'local-sandbox') return { ...input, psuIpAddress: '127.0.0.1' }
  throw new AppError('INVALID_INPUT', {
    what: 'The PSU is present but their IP address is not given.',
    cause: `With the PSU present the console sends x-fapi-customer-ip-address to ${env.name} (without it the bank counts the calls as made without the PSU); it will not send an address it made up.`,
    fix: "Give the PSU's IP address (the AIS form or the guide; CLI: --psu-ip), or run with the PSU absent.",
  })
}

/**
 * Step outputs masked once each. A step's output is read-only once the step has set it (the step machine's
 * snapshots share it; an update replaces it), yet every progress event and every state read masks every step
 * again: keyed by the output object, the masked value is kept with the secrets met in it, which are told again
 * to each pass's collector, so its list of secrets and a reveal see what a fresh pass would.
 */
const maskedOutputs = new WeakMap<object, { masked: unknown; found: SecretFound[] }>()

function maskOutput(output: unknown, ctx: MaskContext): unknown {
  if (output === null || typeof output !== 'object' || ctx.revealed) return redactJson(output, ctx)
  let kept = maskedOutputs.get(output)
  if (!kept) {
    const found: SecretFound[] = []
    kept = { masked: redactJson(output, { found: (s) => found.push(s) }), found }
    maskedOutputs.set(output, kept)
  }
  for (const s of kept.found) ctx.found?.(s)
  return kept.masked
}

/** A step as it may leave the main side: its output masked (secrets listed), its texts searched. */
export function maskStep(step: StepState, collector = new SecretCollector()): StepState {
  const where = `step ${step.id}`
  const ctx = collector.ctx(where)
  const out: StepState = {
    ...step,
    checks: step.checks.map((c) => ({
      ...c,
      ...(c.expected !== undefined ? { expected: redactText(c.expected, ctx) } : {}),
      ...(c.actual !== undefined ? { actual: redactText(c.actual, ctx) } : {}),
    })),
  }
  if (step.output !== undefined) out.output = maskOutput(step.output, ctx)
  if (step.summary) out.summary = redactText(step.summary, ctx)
  if (step.error)
    out.error = {
      ...step.error,
      what: redactText(step.error.what, ctx),
      cause: redactText(step.error.cause, ctx),
      fix: redactText(step.error.fix, ctx),
    }
  const secrets: SecretItemDto[] = collector.items().filter((i) => i.where === where)
  if (secrets.length) out.secrets = secrets
  else delete out.secrets
  return out
}

export function maskFlow(state: FlowState, collector?: SecretCollector): FlowState {
  const c = collector ?? new SecretCollector()
  const awaiting = state.awaiting
  return {
    ...state,
    steps: state.steps.map((s) => maskStep(s, c)),
    ...(awaiting
      ? {
          awaiting: {
            ...awaiting,
            ...(awaiting.authorisationUrl
              ? { authorisationUrl: redactUrl(awaiting.authorisationUrl, c.ctx('awaiting')) }
              : {}),
            ...(awaiting.deeplink ? { deeplink: redactUrl(awaiting.deeplink, c.ctx('awaiting')) } : {}),
          },
        }
      : {}),
  }
}
