/**
 * The official Open Banking v4.0 AIS and PIS schemas, as the sandbox reads them: the JSON files generated
 * into `resources/openapi/` by `npm run openapi:generate` (see resources/openapi/README.md). The sandbox
 * validates request bodies with them (compiled once, at start), and the tests validate every response.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv'
import { OPENAPI_DIR } from '../resources.ts'
import { loadRequestValidators, sandboxAjv } from './request-validators.ts'
import { errorPointer, toObPath } from '../../plumbing/json-pointer.ts'

export { OPENAPI_DIR }

export type ObApi = 'ais' | 'pis'

const FILES: Record<ObApi, string> = { ais: 'account-info.json', pis: 'payment-initiation.json' }

interface GeneratedResponse {
  headers: Array<{ name: string; required: boolean }>
  contentTypes?: string[]
  schema?: { $ref?: string }
}

interface GeneratedOperation {
  operationId: string | null
  parameters: Array<{ name: string; in: string; required: boolean }>
  requestBody?: { required: boolean; contentTypes?: string[]; schema?: { $ref?: string } }
  responses: Record<string, GeneratedResponse>
}

export interface GeneratedApi {
  source: { repository: string; path: string; commit: string; version: string }
  paths: Record<string, Record<string, GeneratedOperation>>
  $defs: Record<string, unknown>
}

/** One schema violation: where (JSON pointer and OB path), which keyword, the value found, the schema. */
export interface SchemaViolation {
  /** JSON pointer into the body, e.g. `/Data/Account/0/OpeningDate`. */
  pointer: string
  /** The same as an OB path, e.g. `Data.Account[0].OpeningDate`. */
  path: string
  keyword: string
  message: string
  /** Where the rule lives in the generated file, e.g. `#/$defs/OBReadAccount6/...`. */
  schemaPath: string
  params: Record<string, unknown>
}

function toViolation(e: ErrorObject): SchemaViolation {
  const pointer = errorPointer(e)
  return {
    pointer,
    path: toObPath(pointer),
    keyword: e.keyword,
    message: e.message ?? 'is invalid',
    schemaPath: e.schemaPath,
    params: e.params as Record<string, unknown>,
  }
}

/**
 * Both APIs' schemas in one ajv instance. Validators are compiled on first use and kept, so each schema
 * is compiled once per process; the request schemas come built ahead from `out/validators/` when it has them
 * for these files (request-validators.ts), and `precompile` readies them at start.
 */
export class ObSchemas {
  readonly apis: Record<ObApi, GeneratedApi>
  #ajv: Ajv | undefined
  /** By `api:name`: the request validators built ahead of time (request-validators.ts), then each one compiled. */
  readonly #validators: Map<string, ValidateFunction>

  constructor(dir = OPENAPI_DIR) {
    const texts = {
      ais: readFileSync(resolve(dir, FILES.ais), 'utf8'),
      pis: readFileSync(resolve(dir, FILES.pis), 'utf8'),
    }
    this.apis = { ais: JSON.parse(texts.ais) as GeneratedApi, pis: JSON.parse(texts.pis) as GeneratedApi }
    this.#validators = loadRequestValidators(dir, texts)
  }

  /** The validator of the named schema (`OBReadAccount6`). */
  validator(api: ObApi, name: string): ValidateFunction {
    const key = `${api}:${name}`
    let v = this.#validators.get(key)
    if (!v) {
      if (!(name in this.apis[api].$defs)) throw new Error(`the ${api} OpenAPI file has no schema ${name}`)
      this.#ajv ??= sandboxAjv({ ais: this.apis.ais.$defs, pis: this.apis.pis.$defs })
      const found = this.#ajv.getSchema(`ob-v4-${api}#/$defs/${name}`)
      if (!found) throw new Error(`ajv could not compile ${api} schema ${name}`)
      v = found
      this.#validators.set(key, v)
    }
    return v
  }

  precompile(api: ObApi, names: readonly string[]): void {
    for (const n of names) this.validator(api, n)
  }

  /** Validates `body` against the named schema; the raw ajv errors, or [] when valid. */
  check(api: ObApi, name: string, body: unknown): ErrorObject[] {
    const v = this.validator(api, name)
    return v(body) ? [] : [...(v.errors ?? [])]
  }

  /** The operation of `method` on the OpenAPI path template (`/accounts/{AccountId}`), if the file has it. */
  operation(api: ObApi, method: string, pathTemplate: string): GeneratedOperation | undefined {
    return this.apis[api].paths[pathTemplate]?.[method.toLowerCase()]
  }

  /** Finds the path template for a concrete path after the API's base path (`/accounts/A1/balances`). */
  matchPath(api: ObApi, path: string): string | undefined {
    for (const template of Object.keys(this.apis[api].paths)) {
      const re = new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`)
      if (re.test(path)) return template
    }
    return undefined
  }

  /** The schema name of a response (`OBReadAccount6`), or undefined when the file gives none. */
  responseSchemaName(api: ObApi, method: string, pathTemplate: string, status: number): string | undefined {
    const ref = this.operation(api, method, pathTemplate)?.responses[String(status)]?.schema?.$ref
    return ref?.replace('#/$defs/', '')
  }

  /** The schema name of an operation's request body. */
  requestSchemaName(api: ObApi, method: string, pathTemplate: string): string | undefined {
    return this.operation(api, method, pathTemplate)?.requestBody?.schema?.$ref?.replace('#/$defs/', '')
  }

  /**
   * Every violation of a response: its body against the status's schema and the headers the file marks
   * required. `path` is the concrete path after the API's base path. A status the operation does not
   * list, or an operation the file does not have, is a violation too.
   */
  checkResponse(
    api: ObApi,
    method: string,
    path: string,
    status: number,
    headers: Record<string, string>,
    body: unknown,
  ): SchemaViolation[] {
    const template = this.matchPath(api, path)
    const op = template === undefined ? undefined : this.operation(api, method, template)
    if (!template || !op)
      return [
        {
          pointer: '',
          path: '',
          keyword: 'operation',
          message: `${method} ${path} is not an operation of the ${api} file`,
          schemaPath: '#/paths',
          params: {},
        },
      ]
    const res = op.responses[String(status)]
    if (!res)
      return [
        {
          pointer: '',
          path: '',
          keyword: 'status',
          message: `status ${status} is not a response of ${method} ${template}`,
          schemaPath: `#/paths/${template}/${method.toLowerCase()}/responses`,
          params: { allowed: Object.keys(op.responses) },
        },
      ]
    const out: SchemaViolation[] = []
    for (const h of res.headers) {
      if (h.required && headers[h.name] === undefined)
        out.push({
          pointer: '',
          path: '',
          keyword: 'header',
          message: `required response header ${h.name} is missing`,
          schemaPath: `#/paths/${template}/${method.toLowerCase()}/responses/${status}/headers`,
          params: { header: h.name },
        })
    }
    const name = res.schema?.$ref?.replace('#/$defs/', '')
    if (name)
      for (const e of this.check(api, name, body))
        out.push({ ...toViolation(e), schemaPath: `#/$defs/${name}${e.schemaPath.replace(/^#/, '')}` })
    return out
  }
}

let shared: ObSchemas | undefined

/** The process's one set of schemas (read and compiled on first use). */
export function obSchemas(): ObSchemas {
  shared ??= new ObSchemas()
  return shared
}
