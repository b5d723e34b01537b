import { createRequire } from 'node:module'
import type { ValidateFunction } from 'ajv'

/**
 * The validators of a standalone module's code (as a `build…Validators()` returns it), run as the console
 * runs a built module (src-main/plumbing/standalone-validators.ts) but from the text, with no file and no digest.
 */
export function validatorsOfModule(code: string): Map<string, ValidateFunction> {
  const mod: Record<string, unknown> = {}
  new Function('exports', 'require', code)(mod, createRequire(import.meta.url))
  return new Map(Object.entries(mod).filter((e): e is [string, ValidateFunction] => typeof e[1] === 'function'))
}
