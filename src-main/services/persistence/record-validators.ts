/**
 * The validators of the console's own files: the settings document (`ob-console.json`) and a registered client's
 * record (`store/clients/*.json`). Built ahead of time like the lens's (`out/validators/records.cjs`, written by
 * scripts/build-validators.ts with ajv's standalone code) and compiled here on first use when that module is
 * missing or was built from other schemas (its SHA-256 of the schemas says). Compiling them at every start had
 * cost a command about 20 ms: conf's new Ajv 2020 for the settings, the client store's Ajv at module load.
 */
import { resolve } from 'node:path'
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { findOpenApiDir } from '../../conformance/openapi-files.ts'
import { loadStandaloneModule, sourceDigest, standaloneModule } from '../../plumbing/standalone-validators.ts'
import { SETTINGS_SCHEMA } from './settings-schema.ts'

export type RecordKind = 'settings' | 'client'

/** The two schemas, by the name each is validated under. */
export const RECORD_SCHEMAS: Record<RecordKind, Record<string, unknown>> = {
  settings: { $id: 'settings', type: 'object', properties: SETTINGS_SCHEMA },
  client: { $id: 'client', ...SETTINGS_SCHEMA.clients.items },
}

const DIGEST = sourceDigest(JSON.stringify(RECORD_SCHEMAS))
const addFormats = addFormatsModule.default

/**
 * The records' ajv: every error (a message lists them all), and a missing top-level key of the settings given
 * its default (`[]`), as conf did when it validated the document; the formats conf knew (`uri`). The schemas are
 * checked against the meta-schema by the unit tests, not on every start.
 */
function recordsAjv(source = false): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    useDefaults: true,
    validateSchema: false,
    ...(source ? { code: { source } } : {}),
  })
  addFormats(ajv)
  for (const schema of Object.values(RECORD_SCHEMAS)) ajv.addSchema(schema)
  return ajv
}

/** Where the built module lives: `out/validators/` at the root that holds `resources/openapi/`. */
export const recordValidatorsFile = (openApiDir: string): string =>
  resolve(openApiDir, '../../out/validators/records.cjs')

/** The standalone module: one export per record kind, and the schemas' digest. */
export function buildRecordValidators(): string {
  return standaloneModule(recordsAjv(true), { settings: 'settings', client: 'client' }, DIGEST)
}

let loaded: { validators: Map<string, ValidateFunction>; source: 'built' | 'compiled' } | undefined

function load(): NonNullable<typeof loaded> {
  const dir = findOpenApiDir()
  const built = dir ? loadStandaloneModule(recordValidatorsFile(dir), DIGEST) : undefined
  if (built) return { validators: built, source: 'built' }
  const ajv = recordsAjv()
  return {
    validators: new Map((['settings', 'client'] as const).map((k) => [k, ajv.getSchema(k)!])),
    source: 'compiled',
  }
}

/** The validator of one record kind: the built one when it matches these schemas, else compiled once. */
export function recordValidator(kind: RecordKind): ValidateFunction {
  return (loaded ??= load()).validators.get(kind)!
}

/** Where the validators came from, once one was asked for: the built module, or compiled here. */
export function recordValidatorsSource(): 'built' | 'compiled' | undefined {
  return loaded?.source
}

/** A validator's errors as one line: `environments/0/kind must be equal to one of the allowed values; …`. */
export function recordProblems(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath.slice(1) || '(the record)'} ${e.message ?? ''}`.trim()).join('; ')
}
