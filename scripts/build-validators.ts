/**
 * Writes the validators built ahead of time into out/validators/: the conformance lens's response
 * validators (src-main/conformance/lens-validators.ts) and the local sandbox's request validators
 * (src-main/local-sandbox/openapi/request-validators.ts), each from the OpenAPI files in resources/openapi/,
 * those of the console's own files (src-main/services/persistence/record-validators.ts) and those of the contract
 * calls' input (src-main/services/call-input.ts), and those of the shapes the flows' steps read answers with
 * (src-main/services/answer-shape-validators.ts); beside each, V8's code cache of it (`<module>.v8cache`, made by
 * the Node that builds: src-main/plumbing/standalone-validators.ts).
 * scripts/build-cli.mjs bundles this file and runs it, so `npm ci` and `npm run build` keep them current.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { buildLensValidators, lensValidatorsFile } from '../src-main/conformance/lens-validators.ts'
import { OPENAPI_FILES } from '../src-main/conformance/openapi-files.ts'
import { buildRequestValidators, requestValidatorsFile } from '../src-main/local-sandbox/openapi/request-validators.ts'
import { buildRecordValidators, recordValidatorsFile } from '../src-main/services/persistence/record-validators.ts'
import { buildCallInputValidators, callInputValidatorsFile } from '../src-main/services/call-input.ts'
import { answerShapeValidatorsFile, buildAnswerShapeValidators } from '../src-main/services/answer-shape-validators.ts'
import { writeCodeCache } from '../src-main/plumbing/standalone-validators.ts'

/** Builds every module from the files in `openApiDir`, each with its code cache; returns the modules written. */
export function buildValidators(openApiDir: string): string[] {
  const texts = {
    ais: readFileSync(resolve(openApiDir, OPENAPI_FILES.ais), 'utf8'),
    pis: readFileSync(resolve(openApiDir, OPENAPI_FILES.pis), 'utf8'),
  }
  const modules: Array<[string, string]> = [
    [lensValidatorsFile(openApiDir, 'ais'), buildLensValidators('ais', texts.ais)],
    [lensValidatorsFile(openApiDir, 'pis'), buildLensValidators('pis', texts.pis)],
    [requestValidatorsFile(openApiDir), buildRequestValidators(texts)],
    [recordValidatorsFile(openApiDir), buildRecordValidators()],
    [callInputValidatorsFile(openApiDir), buildCallInputValidators()],
    [answerShapeValidatorsFile(openApiDir), buildAnswerShapeValidators()],
  ]
  for (const [file, code] of modules) {
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, code)
    writeCodeCache(file)
  }
  return modules.map(([file]) => file)
}
