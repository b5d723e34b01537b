import { readFileSync } from 'node:fs'
import { adminTokenProblem } from '../local-sandbox/index.ts'
import { UsageError } from './cli-support.ts'
import { inputFile } from './flags.ts'

/** The admin token in `--admin-token-file FILE` (its first line), checked before it is used; undefined without the flag. */
export function readAdminTokenFile(file: string | undefined): string | undefined {
  if (file === undefined) return undefined
  const token = readFileSync(inputFile('admin-token-file', file), 'utf8').split(/\r?\n/)[0]!.trim()
  const problem = adminTokenProblem(token)
  if (problem)
    throw new UsageError(`--admin-token-file ${file}: the token on its first line cannot be used: ${problem}`)
  return token
}
