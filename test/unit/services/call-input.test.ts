import { Ajv, type ValidateFunction } from 'ajv'
import { describe, expect, it } from 'vitest'
import schemas from '../../../src-main/contract/input-schemas.json' with { type: 'json' }
import { findOpenApiDir } from '../../../src-main/conformance/openapi-files.ts'
import { loadStandaloneModule } from '../../../src-main/plumbing/standalone-validators.ts'
import {
  buildCallInputValidators,
  callInputValidatorsFile,
  callInputValidatorsSource,
  checkCallInput,
} from '../../../src-main/services/call-input.ts'
import { validatorsOfModule } from '../../support/standalone-module.ts'

/** The module `buildCallInputValidators` writes, loaded as the console loads it. */
const builtNow = () => validatorsOfModule(buildCallInputValidators())

/** A validator compiled at run time, as the console does without the module. */
function compiled(schema: unknown): ValidateFunction {
  return new Ajv({ allErrors: true, strict: true, validateSchema: false }).compile({
    ...(schema as object),
    definitions: schemas.definitions,
  })
}

const calls = schemas.calls as Record<string, { anyOf?: unknown[] }>

/** Inputs that fit and inputs that do not, for calls of every shape: plain, nested, a union told apart by kind. */
const CASES: Array<[key: string, schema: unknown, input: unknown]> = [
  ['flows.runStep', calls['flows.runStep'], { flowId: 'f', stepId: 's' }],
  ['flows.runStep', calls['flows.runStep'], { flowId: 3, extra: true }],
  ['registration.register', calls['registration.register'], { environmentId: 'e', tppId: 't', form: {} }],
  ['registration.register', calls['registration.register'], { environmentId: 'e', form: { grantTypes: [1] } }],
  ['exchanges.list', calls['exchanges.list'], { status: '2xx', limit: 10 }],
  ['exchanges.list', calls['exchanges.list'], { status: 'sometimes', limit: 'ten' }],
  ['flows.start', calls['flows.start'], { kind: 'moon' }],
]

describe('the contract calls’ input validators built ahead (out/validators/call-inputs.cjs)', () => {
  it('are the ones the checks use when the module was built from these schemas', () => {
    // npm test builds out/ first (the unit project's global set-up), so the module is there and current.
    expect(checkCallInput('flows.runAll', { flowId: 'f' })).toEqual({ flowId: 'f' })
    expect(callInputValidatorsSource()).toBe('built')
    expect(loadStandaloneModule(callInputValidatorsFile(findOpenApiDir()!), 'another digest')).toBeUndefined()
  })

  it('answer as the validators compiled at run time do, their errors included, for every kind of flow too', () => {
    const built = builtNow()
    const cases = [...CASES]
    // flows.start takes a FlowInput: a union of one input per kind of flow, each checked on its own.
    const definitions = schemas.definitions as unknown as Record<string, { anyOf?: Array<{ $ref: string }> }>
    const deref = (s: { $ref?: string }) =>
      definitions[String(s.$ref).replace('#/definitions/', '')] as { properties?: { kind?: { const?: string } } }
    const branches =
      definitions[String((calls['flows.start'] as { $ref?: string }).$ref).replace('#/definitions/', '')]!.anyOf!
    expect(branches.map((b) => deref(b).properties?.kind?.const)).toEqual(['ais', 'pis'])
    for (const branch of branches) {
      const kind = deref(branch).properties!.kind!.const!
      cases.push([`flows.start#${kind}`, branch, { kind, environmentId: 'e', clientId: 7 }])
    }
    for (const [key, schema, input] of cases) {
      const ahead = built.get(key)!
      const now = compiled(schema)
      expect(ahead(input), key).toBe(now(input))
      // What a message is made of (the schema paths name the shared definitions instead: no one reads them).
      const seen = (v: ValidateFunction) =>
        (v.errors ?? []).map(({ instancePath, keyword, params, message }) => ({
          instancePath,
          keyword,
          params,
          message,
        }))
      expect(seen(ahead), key).toEqual(seen(now))
    }
    expect(cases.filter(([key, , input]) => !built.get(key)!(input)).length).toBe(6)
  })
})
