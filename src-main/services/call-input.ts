/**
 * The check of what reaches a contract call from outside the main side (Electron IPC, the web host): its
 * input against the JSON Schema generated from the call's TypeScript type (src-main/contract/input-schemas.json,
 * written by `npm run contract:schemas` from src-main/contract/api.ts). A handler past this check can trust its
 * input's shape, so none of them re-checks or casts it.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import type { CallName } from '../contract/api.ts'
import schemas from '../contract/input-schemas.json' with { type: 'json' }
import { AppError } from '../core/app-error.ts'

const ajv = new Ajv({ allErrors: true, strict: true, validateSchema: false })
const compiled = new Map<string, ValidateFunction>()
const inputs = schemas.calls as unknown as Record<string, Schema>
const definitions = schemas.definitions as unknown as Record<string, Schema>

interface Schema {
  $ref?: string
  type?: string
  anyOf?: Schema[]
  properties?: Record<string, Schema & { const?: unknown }>
}

const deref = (s: Schema): Schema => (s.$ref ? (definitions[s.$ref.replace('#/definitions/', '')] ?? s) : s)

/**
 * The schema to check `input` against: for a union told apart by `kind` (FlowInput: AIS or PIS), the branch of
 * the input's kind, so that the problems named are those of what the caller meant (the whole union otherwise).
 */
function schemaFor(call: string, input: unknown): { key: string; schema: Schema } | undefined {
  const schema = inputs[call]
  if (!schema) return undefined
  const kind = (input as { kind?: unknown } | null | undefined)?.kind
  const branch = deref(schema).anyOf?.find((b) => deref(b).properties?.kind?.const === kind)
  return branch && typeof kind === 'string' ? { key: `${call}#${kind}`, schema: branch } : { key: call, schema }
}

function validatorOf(call: string, input: unknown): ValidateFunction | undefined {
  const found = schemaFor(call, input)
  if (!found) return undefined
  let v = compiled.get(found.key)
  if (!v) compiled.set(found.key, (v = ajv.compile({ ...found.schema, definitions })))
  return v
}

/** `/form/grantTypes/0 must be string`, `(input) must have required property 'tppId'`: one line per problem, at most 5. */
function describe(errors: ErrorObject[]): string {
  const lines = errors.slice(0, 5).map((e) => {
    const at = e.instancePath || '(input)'
    if (e.keyword === 'additionalProperties')
      return `${at} has a property the contract does not name: "${String(e.params.additionalProperty)}"`
    if (e.keyword === 'enum') return `${at} must be one of ${(e.params.allowedValues as unknown[]).join(', ')}`
    return `${at} ${e.message ?? 'is not valid'}`
  })
  return `${lines.join('; ')}${errors.length > 5 ? `; and ${errors.length - 5} more` : ''}.`
}

/**
 * Checks `input` for `call`; returns the input to pass on (an absent input of a call whose every field is
 * optional becomes `{}`), or throws INVALID_INPUT naming each field that does not fit.
 */
export function checkCallInput(call: CallName | string, input: unknown): unknown {
  const validate = validatorOf(call, input)
  if (!validate) return input
  const schema = inputs[call]!
  // A call without input (`void`): whatever the transport sent for "nothing" is nothing.
  if (schema.type === 'null') return undefined
  if (input === undefined || input === null) {
    if (validate({})) return {}
    throw new AppError('INVALID_INPUT', {
      what: `The call ${call} got no input.`,
      cause: describe(validate.errors ?? []),
      fix: 'Send the input the contract names for this call (src-main/contract/api.ts).',
    })
  }
  if (validate(input)) return input
  throw new AppError('INVALID_INPUT', {
    what: `The call ${call} got an input that does not fit its contract.`,
    cause: describe(validate.errors ?? []),
    fix: 'Send the input the contract names for this call (src-main/contract/api.ts); nothing was done.',
  })
}
