import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv } from 'ajv'
import { describe, expect, it } from 'vitest'
import { DEFAULT_SOURCE_DIR, FILES, OUTPUT_DIR, generate } from '../../../../scripts/openapi/generate.ts'

const sourcePresent = existsSync(join(DEFAULT_SOURCE_DIR, 'account-info-openapi.json'))

describe('resources/openapi', () => {
  // CI has ../shared beside the clone; a developer's clone may not. Without the official files there is
  // nothing to compare with, so the check is skipped (and says why) rather than failed.
  it.skipIf(!sourcePresent)(
    `equals what scripts/openapi/generate.ts makes from the official files${sourcePresent ? '' : ` (skipped: ${DEFAULT_SOURCE_DIR} is absent)`}`,
    () => {
      const generated = generate(DEFAULT_SOURCE_DIR)
      for (const name of Object.values(FILES)) {
        const committed = readFileSync(join(OUTPUT_DIR, name), 'utf8')
        // On a difference: run `npm run openapi:generate` and commit the result.
        expect(committed === generated[name], `resources/openapi/${name} differs from the generator's output`).toBe(
          true,
        )
      }
    },
  )

  it('records the source commit and the licence, and keeps no prose', () => {
    for (const name of Object.values(FILES)) {
      const doc = JSON.parse(readFileSync(join(OUTPUT_DIR, name), 'utf8'))
      expect(doc.source.commit).toMatch(/^[0-9a-f]{7,40}$/)
      expect(doc.source.version).toBe('4.0.0')
      expect(doc.source.license.name).toBe('open-licence')
      expect(doc.source.attribution).toContain('Open Banking Limited')
      const text = JSON.stringify(doc.$defs)
      expect(text).not.toContain('"description"')
      expect(text).not.toContain('#/components/')
      expect(Object.keys(doc.paths).length).toBeGreaterThan(20)
    }
  })
})

describe('the schemas of resources/openapi', () => {
  // The lens and the sandbox compile them without checking them against the meta-schema (it cost every start
  // about 60 ms per ajv instance): this is where that check is made.
  it('are valid JSON Schemas (draft-07 meta-schema)', () => {
    const ajv = new Ajv({ strict: false })
    for (const name of Object.values(FILES)) {
      const doc = JSON.parse(readFileSync(join(OUTPUT_DIR, name), 'utf8'))
      expect(ajv.validateSchema({ $defs: doc.$defs }), `${name}: ${ajv.errorsText()}`).toBe(true)
    }
  })
})
