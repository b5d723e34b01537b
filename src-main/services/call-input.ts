/**
 * The check of what reaches a contract call from outside the main side (Electron IPC, the web host): its
 * input against the JSON Schema generated from the call's TypeScript type (src-main/contract/input-schemas.json,
 * written by `npm run contract:schemas` from src-main/contract/api.ts). A handler past this check can trust its
 * input's shape, so none of them re-checks or casts it.
 *
 * The validators are built ahead like the lens's (`out/validators/call-inputs.cjs`, written by
 * scripts/build-validators.ts with ajv's standalone code) and compiled here on first use when that module is
 * missing or was built from other schemas. Compiled at run time, each call's first use had cost 1 to 6 ms
 * (`registration.register` 6, `flows.start` 4): the first click of each action in a window, every call of a
 * command line run.
 */
import { resolve } from 'node:path'
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import type { CallName } from '../contract/api.ts'
import schemas from '../contract/input-schemas.json' with { type: 'json' }
import { AppError } from '../core/app-error.ts'
import { findOpenApiDir } from '../conformance/openapi-files.ts'
import { loadStandaloneModule, sourceDigest, standaloneModule } from '../plumbing/standalone-validators.ts'

const inputs = schemas.calls as unknown as Record<string, Schema>
const definitions = schemas.definitions as unknown as Record<string, Schema>
const DIGEST = sourceDigest(JSON.stringify(schemas))

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

/** Every schema a check may ask for, by key: each call's whole input, and each branch told apart by `kind`. */
function everySchema(): Map<string, Schema> {
  const all = new Map<string, Schema>()
  for (const [call, schema] of Object.entries(inputs)) {
    all.set(call, schema)
    for (const branch of deref(schema).anyOf ?? []) {
      const kind = deref(branch).properties?.kind?.const
      if (typeof kind === 'string') all.set(`${call}#${kind}`, branch)
    }
  }
  return all
}

const callsAjv = (source = false) =>
  new Ajv({ allErrors: true, strict: true, validateSchema: false, ...(source ? { code: { source } } : {}) })

/** Where the built module lives: `out/validators/` at the root that holds `resources/openapi/`. */
export const callInputValidatorsFile = (openApiDir: string): string =>
  resolve(openApiDir, '../../out/validators/call-inputs.cjs')

const DEFINITIONS_ID = 'urn:ob-console:call-input:definitions'

/** `schema` with its references to the definitions pointed at the one schema that holds them all. */
function sharingDefinitions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(sharingDefinitions)
  if (!schema || typeof schema !== 'object') return schema
  return Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' && v.startsWith('#/definitions/')
        ? `${DEFINITIONS_ID}${v}`
        : sharingDefinitions(v),
    ]),
  )
}

/**
 * The standalone module: one export per key of `everySchema`, and the schemas' digest. The definitions are one
 * schema the others refer to, so each type's code is written once, not once per call that uses it.
 */
export function buildCallInputValidators(): string {
  const ajv = callsAjv(true)
  ajv.addSchema({ $id: DEFINITIONS_ID, definitions: sharingDefinitions(definitions) })
  const refs: Record<string, string> = {}
  for (const [key, schema] of everySchema()) {
    const id = `urn:ob-console:call-input:${key.replace('#', ':')}`
    ajv.addSchema({ ...(sharingDefinitions(schema) as Schema), $id: id })
    refs[key] = id
  }
  return standaloneModule(ajv, refs, DIGEST)
}

let validators:
  { built: Map<string, ValidateFunction> | undefined; compiled: Map<string, ValidateFunction> } | undefined
let ajv: Ajv | undefined

function validatorOf(call: string, input: unknown): ValidateFunction | undefined {
  const found = schemaFor(call, input)
  if (!found) return undefined
  if (!validators) {
    const dir = findOpenApiDir()
    validators = {
      built: dir ? loadStandaloneModule(callInputValidatorsFile(dir), DIGEST) : undefined,
      compiled: new Map(),
    }
  }
  let v = validators.built?.get(found.key) ?? validators.compiled.get(found.key)
  if (!v) validators.compiled.set(found.key, (v = (ajv ??= callsAjv()).compile({ ...found.schema, definitions })))
  return v
}

/** Where the checks' validators came from, once one was asked for: the built module, or compiled here. */
export function callInputValidatorsSource(): 'built' | 'compiled' | undefined {
  return validators && (validators.built ? 'built' : 'compiled')
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
