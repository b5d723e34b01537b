/**
 * The validators of the shapes the flows' steps read bank answers with (flows/common/bank-answer.ts), built
 * ahead of time like the lens's (`out/validators/answer-shapes.cjs`, written by scripts/build-validators.ts with
 * ajv's standalone code). Each is exported under its shape's key (its name and schema hashed), so a module built
 * from other code holds no validator for a changed shape, and that shape is compiled at run time instead.
 * Compiled at run time, the AIS journey's seven shapes had cost about 25 ms of every command line run and of
 * the first journey in a window.
 */
import { resolve } from 'node:path'
import type { ValidateFunction } from 'ajv'
import { findOpenApiDir } from '../conformance/openapi-files.ts'
import '../flows/ais/ais-flow.ts'
import '../flows/pis/pis-flow.ts'
import { answerShapeAjv, answerShapeKey, answerShapes } from '../flows/common/bank-answer.ts'
import { loadStandaloneModule, sourceDigest, standaloneModule } from '../plumbing/standalone-validators.ts'

/** The module's digest: its keys name what each validator was built from, so it carries only its format. */
const DIGEST = sourceDigest('answer shapes, one export per answerShapeKey')

/** Where the built module lives: `out/validators/` at the root that holds `resources/openapi/`. */
export const answerShapeValidatorsFile = (openApiDir: string): string =>
  resolve(openApiDir, '../../out/validators/answer-shapes.cjs')

/** The standalone module: one export per shape the AIS and PIS steps make, under its key. */
export function buildAnswerShapeValidators(): string {
  const ajv = answerShapeAjv(true)
  const refs: Record<string, string> = {}
  for (const shape of answerShapes()) {
    const key = answerShapeKey(shape)
    if (refs[key]) continue
    refs[key] = `urn:ob-console:answer-shape:${key}`
    ajv.addSchema({ ...shape.schema, $id: refs[key] })
  }
  return standaloneModule(ajv, refs, DIGEST)
}

/** The built validators by shape key, when `out/validators/` has the module; else undefined (each compiles). */
export function loadAnswerShapeValidators(): Map<string, ValidateFunction> | undefined {
  const dir = findOpenApiDir()
  return dir ? loadStandaloneModule(answerShapeValidatorsFile(dir), DIGEST) : undefined
}
