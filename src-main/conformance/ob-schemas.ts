/**
 * The official OB v4.0 schemas in one ajv instance, compiled lazily: each response schema the first time an
 * answer needs it, then kept for the process (or the worker). Finds the operation an answer belongs to.
 */
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv'
import type { ConformanceViolationDto } from '../contract/exchange.ts'
import { lensAjv, lensSchemaId, loadLensValidators, type LensValidators } from './lens-validators.ts'
import {
  OPENAPI_FILES,
  readOpenApiFiles,
  type GeneratedApi,
  type GeneratedOperation,
  type ObApi,
} from './openapi-files.ts'
import { describeValue, errorPointer, toObPath, valueAt } from '../plumbing/json-pointer.ts'

/** An answer's operation in the OpenAPI files: which API, the path template, the method's operation. */
export interface MatchedOperation {
  api: ObApi
  template: string
  method: string
  operation: GeneratedOperation
}

function templateRegex(template: string): RegExp {
  return new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`)
}

export class ObSchemas {
  /** The files in `dir`, with the validators built from them when `out/validators/` has them. */
  static fromDir(dir: string): ObSchemas {
    return new ObSchemas(readOpenApiFiles(dir), (api) => loadLensValidators(dir, api))
  }

  readonly #apis: Record<ObApi, GeneratedApi>
  readonly #built: (api: ObApi) => LensValidators | undefined
  readonly #builtByApi: Partial<Record<ObApi, LensValidators | null>> = {}
  #ajv: Ajv | undefined
  readonly #validators = new Map<string, ValidateFunction>()
  /** Path templates with their patterns, literal ones first (`/accounts/{AccountId}` after `/accounts`). */
  readonly #templates: Record<ObApi, Array<{ template: string; re: RegExp }>>

  /**
   * `built` gives an API's validators built ahead of time (lens-validators.ts), when there are any; the
   * schemas it has not are compiled here on first use.
   */
  constructor(apis: Record<ObApi, GeneratedApi>, built: (api: ObApi) => LensValidators | undefined = () => undefined) {
    this.#apis = apis
    this.#built = built
    const templates = (api: ObApi) =>
      Object.keys(apis[api].paths)
        .sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))
        .map((template) => ({ template, re: templateRegex(template) }))
    this.#templates = { ais: templates('ais'), pis: templates('pis') }
  }

  /** The operation of `method` on `path` (after the API's base path), if the file has one. */
  match(api: ObApi, method: string, path: string): MatchedOperation | undefined {
    const m = method.toLowerCase()
    for (const { template, re } of this.#templates[api]) {
      if (!re.test(path)) continue
      const operation = this.#apis[api].paths[template]?.[m]
      if (operation) return { api, template, method: m, operation }
    }
    return undefined
  }

  /** The compiled validator of a named schema of one API (`OBReadAccount6`). */
  validator(api: ObApi, name: string): ValidateFunction {
    const key = `${api}:${name}`
    let v = this.#validators.get(key)
    if (!v) {
      if (!(name in this.#apis[api].$defs)) throw new Error(`${OPENAPI_FILES[api]} has no schema ${name}`)
      this.#builtByApi[api] ??= this.#built(api) ?? null
      v = this.#builtByApi[api]?.[name]
      if (!v) {
        this.#ajv ??= lensAjv(this.#apis)
        v = this.#ajv.getSchema(`${lensSchemaId(api)}#/$defs/${name}`)
      }
      if (!v) throw new Error(`ajv could not compile ${name} of ${OPENAPI_FILES[api]}`)
      this.#validators.set(key, v)
    }
    return v
  }

  /** Every violation of `body` against the named schema, as the lens reports them (at most `max`). */
  check(api: ObApi, name: string, body: unknown, max = 200): ConformanceViolationDto[] {
    const v = this.validator(api, name)
    if (v(body)) return []
    return (v.errors ?? []).slice(0, max).map((e) => toViolation(e, body, name, OPENAPI_FILES[api]))
  }
}

function toViolation(e: ErrorObject, body: unknown, schema: string, file: string): ConformanceViolationDto {
  const pointer = errorPointer(e)
  const where = toObPath(pointer)
  const found = e.keyword === 'required' ? undefined : valueAt(body, pointer)
  const detail =
    e.keyword === 'required'
      ? `is missing; ${schema} requires it`
      : e.keyword === 'additionalProperties'
        ? `is not a member of ${schema}'s object here`
        : e.keyword === 'enum'
          ? `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`
          : e.keyword === 'format'
            ? `must be a ${(e.params as { format: string }).format}`
            : (e.message ?? 'is invalid')
  // ajv names the rule inside the schema it sits in: a referenced one from the file's root, else from `schema`.
  const at = e.schemaPath.replace(/^#/, '')
  const source = `${schema} (${file}#${at.startsWith('/$defs/') ? at : `/$defs/${schema}${at}`})`
  const v: ConformanceViolationDto = {
    path: where,
    rule: `schema.${e.keyword}`,
    message: `${where || 'The body'} ${detail}`,
    source,
  }
  if (found !== undefined) v.value = describeValue(found)
  return v
}
