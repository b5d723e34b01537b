/**
 * The official Open Banking v4.0 AIS and PIS OpenAPI files as the console reads them: the JSON generated
 * into `resources/openapi/` (see resources/openapi/README.md). The console's own loader: the local sandbox
 * has one too, and the two share no code (docs/architecture.md), so a bug in one is caught by the other.
 */
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'

// The repository root is two levels up from every place this code runs: the sources (src-main/conformance),
// the built command line (out/cli, one folder for all its files) and the desktop main (out/main, also inside a
// packaged app's asar, which carries resources/openapi: electron-builder.json). Three levels: a chunk in a
// subfolder of out/main.
const CANDIDATES = [
  resolve(import.meta.dirname, '../../resources/openapi'),
  resolve(import.meta.dirname, '../../../resources/openapi'),
]

/** The folder of the generated OpenAPI files, or undefined when none of the known places has them. */
export function findOpenApiDir(): string | undefined {
  return CANDIDATES.find((dir) => existsSync(resolve(dir, 'account-info.json')))
}

export type ObApi = 'ais' | 'pis'

/** The file each API's schemas come from, as named in a violation's source. */
export const OPENAPI_FILES: Record<ObApi, string> = { ais: 'account-info.json', pis: 'payment-initiation.json' }

/** The base path of each API under `{base_url}` (bank-interface-spec.md §4.2, §4.3). */
export const API_BASE_PATHS: Record<ObApi, string> = { ais: '/open-banking/v4.0/aisp', pis: '/open-banking/v4.0/pisp' }

export interface GeneratedResponse {
  headers: Array<{ name: string; required: boolean }>
  contentTypes?: string[]
  schema?: { $ref?: string }
}

export interface GeneratedOperation {
  operationId: string | null
  responses: Record<string, GeneratedResponse>
}

export interface GeneratedApi {
  source: { repository: string; path: string; commit: string; version: string }
  paths: Record<string, Record<string, GeneratedOperation>>
  $defs: Record<string, unknown>
}

/** Reads both generated files from `dir`; throws naming the file when one is missing or not JSON. */
export function readOpenApiFiles(dir: string): Record<ObApi, GeneratedApi> {
  const read = (api: ObApi): GeneratedApi => {
    const file = resolve(dir, OPENAPI_FILES[api])
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as GeneratedApi
    } catch (err) {
      throw new Error(`the OpenAPI file ${file} could not be read: ${(err as Error).message}`)
    }
  }
  return { ais: read('ais'), pis: read('pis') }
}
