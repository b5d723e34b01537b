import { createRequire } from 'node:module'

/** The HAR 1.2 JSON Schema check of `har-validator` (its own schemas from `har-schema`; offline). */
const validator = createRequire(import.meta.url)('har-validator/lib/promise') as {
  har(data: unknown): Promise<unknown>
}

/**
 * The schema errors of a HAR document, as `path: message` lines; empty when it is valid HAR 1.2.
 *
 * @example expect(await harSchemaErrors(JSON.parse(text))).toEqual([])
 */
export async function harSchemaErrors(har: unknown): Promise<string[]> {
  try {
    await validator.har(har)
    return []
  } catch (e) {
    const errors = (e as { errors?: Array<{ dataPath?: string; instancePath?: string; message?: string }> }).errors
    if (!errors) throw e
    return errors.map((x) => `${x.dataPath ?? x.instancePath ?? ''}: ${x.message ?? 'invalid'}`)
  }
}
