import type { SchemaViolation } from '../../../../../src-main/local-sandbox/openapi/ob-openapi.ts'

export interface Found {
  endpoint: string
  violation: SchemaViolation
  value?: unknown
  body: unknown
}

export interface ViolationGroup {
  /** Endpoint, the field with array indexes dropped, the rule. */
  group: string
  count: number
  example: { path: string; message: string; value: unknown; schemaPath: string }
}

function at(body: unknown, pointer: string): unknown {
  let node = body
  for (const s of pointer.split('/').slice(1))
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[s] : undefined
  return node
}

/** Groups violations by endpoint, field (indexes dropped) and rule, with one example each. */
export function groupViolations(found: Found[]): ViolationGroup[] {
  const groups = new Map<string, ViolationGroup>()
  for (const f of found) {
    const field = f.violation.path.replace(/\[\d+\]/g, '[]')
    const key = `${f.endpoint} ${field} ${f.violation.keyword}`
    const g = groups.get(key)
    if (g) g.count += 1
    else
      groups.set(key, {
        group: key,
        count: 1,
        example: {
          path: f.violation.path,
          message: f.violation.message,
          value: at(f.body, f.violation.pointer),
          schemaPath: f.violation.schemaPath,
        },
      })
  }
  return [...groups.values()]
}
