/**
 * The lens's ajv, and its validators built ahead of time. Compiling the response schemas of one OpenAPI
 * file at run time takes most of a second of a command's start (the AIS file: about 0.8 s for its 15
 * response schemas on the 2-core build machine); `scripts/build-validators.ts`, run by `npm ci` and
 * `npm run build`, writes them once with ajv's standalone code to `out/validators/lens-{ais,pis}.cjs`, which
 * load in tens of milliseconds. A built module is used only when it was built from the same file (its
 * SHA-256 is in the module); when it is missing or stale the lens compiles the schemas as before.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { Ajv, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { loadStandaloneModule, sourceDigest, standaloneModule } from '../plumbing/standalone-validators.ts'
import { OPENAPI_FILES, type GeneratedApi, type ObApi } from './openapi-files.ts'

const addFormats = addFormatsModule.default

/** One API's validators by schema name (`OBReadAccount6`). */
export type LensValidators = Record<string, ValidateFunction>

/** The id each API's `$defs` are added under; a schema is `${id}#/$defs/${name}`. */
export const lensSchemaId = (api: ObApi): string => `console-ob-v4-${api}`

/**
 * The lens's ajv with the APIs' `$defs` added: the same options whether it compiles at run time or writes
 * standalone code (`source`). The files' schemas are checked by the generator's tests, not again on every
 * start (`validateSchema: false` saves compiling the meta-schema).
 */
export function lensAjv(apis: Partial<Record<ObApi, GeneratedApi>>, source = false): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: true,
    validateSchema: false,
    ...(source ? { code: { source } } : {}),
  })
  addFormats(ajv)
  for (const api of ['ais', 'pis'] as const) {
    const file = apis[api]
    if (file) ajv.addSchema({ $id: lensSchemaId(api), $defs: file.$defs })
  }
  return ajv
}

/** Every schema a response of the file names: the ones the lens checks answers against. */
export function responseSchemaNames(file: GeneratedApi): string[] {
  const names = new Set<string>()
  for (const methods of Object.values(file.paths))
    for (const op of Object.values(methods))
      for (const res of Object.values(op.responses)) {
        const ref = res.schema?.$ref
        if (ref?.startsWith('#/$defs/')) names.add(ref.slice('#/$defs/'.length))
      }
  return [...names].sort()
}

/** Where the built module of one API lives: `out/validators/` beside `resources/openapi/` at the root. */
export function lensValidatorsFile(openApiDir: string, api: ObApi): string {
  return resolve(openApiDir, '../../out/validators', `lens-${api}.cjs`)
}

/**
 * The standalone module of one API: a CommonJS file exporting one validator per response schema, and the
 * SHA-256 of the OpenAPI file it was built from (`fileText`, as read from disk).
 */
export function buildLensValidators(api: ObApi, fileText: string): string {
  const file = JSON.parse(fileText) as GeneratedApi
  const ajv = lensAjv({ [api]: file }, true)
  const refs = Object.fromEntries(responseSchemaNames(file).map((n) => [n, `${lensSchemaId(api)}#/$defs/${n}`]))
  return standaloneModule(ajv, refs, sourceDigest(fileText))
}

/**
 * The built validators of one API when `out/validators/` has them for this very file, else undefined
 * (the caller compiles). Never throws: a module that cannot load is as good as none.
 */
export function loadLensValidators(openApiDir: string, api: ObApi): LensValidators | undefined {
  try {
    const text = readFileSync(resolve(openApiDir, OPENAPI_FILES[api]), 'utf8')
    const built = loadStandaloneModule(lensValidatorsFile(openApiDir, api), sourceDigest(text))
    return built && Object.fromEntries(built)
  } catch {
    return undefined
  }
}
