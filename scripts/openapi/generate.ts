/**
 * Generates `resources/openapi/{account-info,payment-initiation}.json` from the official Open Banking v4.0
 * OpenAPI files (`../shared/spec/official/` beside the clone, or the folder given as the first argument).
 *
 * What is kept: every path and operation (method, operationId, parameters with `$ref`s resolved, the request
 * body's schema, each response's schema and required headers) and every schema of `components.schemas`,
 * moved to `$defs` so that a `$ref` (`#/$defs/OBReadAccount6`) resolves inside the generated file and ajv can
 * load the `$defs` as they are. What is dropped: prose (`description`, `title`, `summary`, `example`, tags),
 * the `x-namespaced-enum` hints (code lists that are not a closed enum) and security schemes.
 *
 *   npm run openapi:generate            # writes resources/openapi/*.json
 *   npm run openapi:generate -- DIR     # reads the official files from DIR instead
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { resolve, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO_ROOT = resolve(import.meta.dirname, '../..')
export const DEFAULT_SOURCE_DIR = resolve(REPO_ROOT, '../shared/spec/official')
export const OUTPUT_DIR = resolve(REPO_ROOT, 'resources/openapi')

/** Official file → generated file. */
export const FILES = {
  'account-info-openapi.json': 'account-info.json',
  'payment-initiation-openapi.json': 'payment-initiation.json',
} as const

type Json = null | boolean | number | string | Json[] | { [k: string]: Json }
type JsonObject = { [k: string]: Json }

/** Schema keywords that carry prose or hints only; they are not part of the wire contract. */
const DROPPED_SCHEMA_KEYS = new Set(['description', 'title', 'example', 'examples', 'x-namespaced-enum'])

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const

/** The JSON content type preferred for a schema (the official files repeat one schema per content type). */
const JSON_TYPES = ['application/json; charset=utf-8', 'application/json']

function isObject(v: Json | undefined): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

/** A schema without prose, with `#/components/schemas/X` rewritten to `#/$defs/X`. */
function cleanSchema(node: Json): Json {
  if (Array.isArray(node)) return node.map(cleanSchema)
  if (!isObject(node)) return node
  const out: JsonObject = {}
  for (const [k, v] of Object.entries(node)) {
    if (k === 'properties' && isObject(v)) {
      // Property names are data, not keywords: a property may be called "Description".
      out[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, cleanSchema(s)]))
    } else if (k === '$ref' && typeof v === 'string') {
      const m = /^#\/components\/schemas\/(.+)$/.exec(v)
      if (!m) throw new Error(`unexpected schema $ref ${v}`)
      out[k] = `#/$defs/${m[1]}`
    } else if (k === 'enum' || k === 'required' || k === 'default') {
      out[k] = v
    } else if (!DROPPED_SCHEMA_KEYS.has(k)) {
      out[k] = cleanSchema(v)
    }
  }
  return out
}

function deref(doc: JsonObject, node: Json, kind: 'parameters' | 'responses' | 'requestBodies'): JsonObject {
  if (isObject(node) && typeof node.$ref === 'string') {
    const prefix = `#/components/${kind}/`
    if (!node.$ref.startsWith(prefix)) throw new Error(`unexpected ${kind} $ref ${node.$ref}`)
    const target = (doc.components as JsonObject)[kind] as JsonObject | undefined
    const found = target?.[node.$ref.slice(prefix.length)]
    if (!isObject(found)) throw new Error(`unresolved $ref ${node.$ref}`)
    return found
  }
  if (!isObject(node)) throw new Error(`expected an object for a ${kind} entry`)
  return node
}

/** The schema of a content map: the JSON one when there is one, else the first; with its content types. */
function pickContent(content: Json | undefined): JsonObject | undefined {
  if (!isObject(content)) return undefined
  const types = Object.keys(content)
  const chosen = JSON_TYPES.find((t) => types.includes(t)) ?? types[0]
  if (chosen === undefined) return undefined
  const entry = content[chosen]
  const schema = isObject(entry) ? entry.schema : undefined
  return { contentTypes: types, ...(schema !== undefined ? { schema: cleanSchema(schema) } : {}) }
}

function operation(doc: JsonObject, op: JsonObject): JsonObject {
  const parameters = ((op.parameters as Json[] | undefined) ?? []).map((p) => {
    const param = deref(doc, p, 'parameters')
    return {
      name: param.name ?? null,
      in: param.in ?? null,
      required: param.required === true,
      ...(param.schema !== undefined ? { schema: cleanSchema(param.schema) } : {}),
    }
  })
  const out: JsonObject = { operationId: (op.operationId as string | undefined) ?? null, parameters }
  if (op.requestBody !== undefined) {
    const body = deref(doc, op.requestBody, 'requestBodies')
    out.requestBody = { required: body.required === true, ...pickContent(body.content) }
  }
  const responses: JsonObject = {}
  for (const [status, r] of Object.entries((op.responses as JsonObject | undefined) ?? {})) {
    const res = deref(doc, r, 'responses')
    const headers = Object.entries((res.headers as JsonObject | undefined) ?? {}).map(([name, h]) => ({
      name: name.toLowerCase(),
      required: isObject(h) && h.required === true,
    }))
    responses[status] = { headers, ...pickContent(res.content) }
  }
  out.responses = responses
  return out
}

/** The source commit named in the official folder's README (`at commit 2881199`). */
export function sourceCommit(sourceDir: string): string {
  const readme = readFileSync(join(sourceDir, 'README.md'), 'utf8')
  const m = /at commit ([0-9a-f]{7,40})/.exec(readme)
  if (!m) throw new Error(`${join(sourceDir, 'README.md')} does not name the source commit ("at commit <sha>")`)
  return m[1]!
}

/** The generated documents, file name → text (what `npm run openapi:generate` writes). */
export function generate(sourceDir = DEFAULT_SOURCE_DIR): Record<string, string> {
  const commit = sourceCommit(sourceDir)
  const out: Record<string, string> = {}
  for (const [official, generated] of Object.entries(FILES)) {
    const doc = JSON.parse(readFileSync(join(sourceDir, official), 'utf8')) as JsonObject
    const info = doc.info as JsonObject
    const paths: JsonObject = {}
    for (const [path, item] of Object.entries(doc.paths as JsonObject)) {
      const ops: JsonObject = {}
      for (const method of HTTP_METHODS) {
        const op = (item as JsonObject)[method]
        if (isObject(op)) ops[method] = operation(doc, op)
      }
      paths[path] = ops
    }
    const schemas = (doc.components as JsonObject).schemas as JsonObject
    const result = {
      $comment:
        'Generated by scripts/openapi/generate.ts from the official Open Banking v4.0 OpenAPI file; do not edit (npm run openapi:generate).',
      source: {
        repository: 'OpenBankingUK/read-write-api-specs',
        path: `dist/openapi/${official}`,
        commit,
        openapi: doc.openapi ?? null,
        version: info.version ?? null,
        title: info.title ?? null,
        license: info.license ?? null,
        attribution:
          'Derived from the Open Banking Read/Write API Specification v4.0 by Open Banking Limited, used under the Open Licence (https://www.openbanking.org.uk/open-licence).',
      },
      paths,
      $defs: Object.fromEntries(Object.entries(schemas).map(([name, s]) => [name, cleanSchema(s)])),
    }
    out[generated] = `${JSON.stringify(result, null, 1)}\n`
  }
  return out
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const sourceDir = process.argv[2] ? resolve(process.argv[2]) : DEFAULT_SOURCE_DIR
  mkdirSync(OUTPUT_DIR, { recursive: true })
  for (const [name, text] of Object.entries(generate(sourceDir))) {
    writeFileSync(join(OUTPUT_DIR, name), text)
    console.log(`wrote resources/openapi/${name} (${text.length} bytes) from ${sourceDir}`)
  }
}
