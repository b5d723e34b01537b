/**
 * The sandbox's ajv and the request validators it keeps ready. The request bodies the sandbox checks
 * (`REQUEST_SCHEMAS`) used to be compiled at every start (about 150 ms, longer on a busy machine);
 * `scripts/build-validators.ts`, run by `npm ci` and `npm run build`, writes them with ajv's standalone code
 * to `out/validators/sandbox-requests.cjs`. The module carries the SHA-256 of the two OpenAPI files it was
 * built from, and is used only when they are still the files on disk; otherwise the schemas are compiled.
 */
import { resolve } from 'node:path'
import { Ajv, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { loadStandaloneModule, sourceDigest, standaloneModule } from '../../plumbing/standalone-validators.ts'

const addFormats = addFormatsModule.default

type Api = 'ais' | 'pis'

/** The request schemas the sandbox checks bodies with: ready when the sandbox starts. */
export const REQUEST_SCHEMAS = {
  ais: ['OBReadConsent1'],
  pis: ['OBWriteDomesticConsent4', 'OBWriteDomestic2'],
} as const

/** The sandbox's ajv over both files' `$defs` (`ob-v4-ais`, `ob-v4-pis`), strict; `source` keeps the code. */
export function sandboxAjv(defs: Record<Api, Record<string, unknown>>, source = false): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: true, validateSchema: false, ...(source ? { code: { source } } : {}) })
  addFormats(ajv)
  for (const api of ['ais', 'pis'] as const) ajv.addSchema({ $id: `ob-v4-${api}`, $defs: defs[api] })
  return ajv
}

/** One digest of both files' text, in a fixed order. */
const digestOf = (texts: Record<Api, string>): string => sourceDigest(texts.ais, texts.pis)

/** The built module's path: `out/validators/` at the root that holds `resources/openapi/`. */
export const requestValidatorsFile = (openApiDir: string): string =>
  resolve(openApiDir, '../../out/validators/sandbox-requests.cjs')

/** The standalone module: one export per request schema, named `ais:OBReadConsent1`, and the files' digest. */
export function buildRequestValidators(texts: Record<Api, string>): string {
  const defs = {
    ais: (JSON.parse(texts.ais) as { $defs: Record<string, unknown> }).$defs,
    pis: (JSON.parse(texts.pis) as { $defs: Record<string, unknown> }).$defs,
  }
  const refs: Record<string, string> = {}
  for (const api of ['ais', 'pis'] as const)
    for (const name of REQUEST_SCHEMAS[api]) refs[`${api}:${name}`] = `ob-v4-${api}#/$defs/${name}`
  return standaloneModule(sandboxAjv(defs, true), refs, digestOf(texts))
}

/**
 * The built validators (by `api:name`) when `out/validators/` has them for these very files (`texts`, as
 * read), else an empty map: the caller compiles what it needs.
 */
export function loadRequestValidators(openApiDir: string, texts: Record<Api, string>): Map<string, ValidateFunction> {
  return loadStandaloneModule(requestValidatorsFile(openApiDir), digestOf(texts)) ?? new Map()
}
