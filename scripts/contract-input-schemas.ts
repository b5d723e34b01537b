/**
 * Writes src-main/contract/input-schemas.json: the JSON Schema of every contract call's input, generated from
 * the TypeScript types of src-main/contract/api.ts (ts-json-schema-generator), so that the main side checks
 * what reaches it over IPC or the web host against the same types the renderer is compiled with
 * (src-main/services/call-input.ts). `npm run contract:schemas` runs it; a unit test fails when the file
 * differs from what the types give (test/unit/contract/input-schemas.test.ts).
 */
import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { createGenerator, type Definition } from 'ts-json-schema-generator'

const ROOT = resolve(import.meta.dirname, '..')
export const INPUT_SCHEMAS_FILE = resolve(ROOT, 'src-main/contract/input-schemas.json')

/** The definitions an object of schemas refers to (`#/definitions/X`), followed transitively. */
function referenced(roots: unknown[], all: Record<string, Definition>): Record<string, Definition> {
  const out: Record<string, Definition> = {}
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit)
    if (!node || typeof node !== 'object') return
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/definitions/')) {
        const name = decodeURIComponent(v.slice('#/definitions/'.length))
        if (!(name in out) && all[name]) {
          out[name] = all[name]
          visit(all[name])
        }
      } else visit(v)
    }
  }
  roots.forEach(visit)
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)))
}

/** The file's text: `{ calls: { name: schema of its input }, definitions }`, stable order, with a final newline. */
export function contractInputSchemasText(): string {
  const generator = createGenerator({
    path: resolve(ROOT, 'src-main/contract/api.ts'),
    tsconfig: resolve(ROOT, 'tsconfig.main.json'),
    type: 'ContractCalls',
    skipTypeCheck: true,
    expose: 'export',
    topRef: true,
    jsDoc: 'none',
  })
  const schema = generator.createSchema('ContractCalls')
  const all = (schema.definitions ?? {}) as Record<string, Definition>
  const calls = (all.ContractCalls as { properties: Record<string, { properties: { input: Definition } }> }).properties
  const inputs = Object.fromEntries(
    Object.entries(calls)
      .map(([name, call]) => [name, call.properties.input] as const)
      .sort(([a], [b]) => a.localeCompare(b)),
  )
  const doc = { calls: inputs, definitions: referenced(Object.values(inputs), all) }
  return `${JSON.stringify(doc, null, 2)}\n`
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  writeFileSync(INPUT_SCHEMAS_FILE, contractInputSchemasText())
  process.stdout.write(`wrote ${INPUT_SCHEMAS_FILE}\n`)
}
