import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildLensValidators,
  lensAjv,
  lensSchemaId,
  lensValidatorsFile,
  loadLensValidators,
  responseSchemaNames,
} from '../../../src-main/conformance/lens-validators.ts'
import { ObSchemas } from '../../../src-main/conformance/ob-schemas.ts'
import { findOpenApiDir, OPENAPI_FILES, readOpenApiFiles } from '../../../src-main/conformance/openapi-files.ts'
import { accountsBody, transactionsPage } from './answers.ts'

// A copy of resources/openapi in a root of its own, so the modules built here never touch out/validators.
let root: string
let openApiDir: string
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ob-lens-validators-'))
  openApiDir = join(root, 'resources', 'openapi')
  mkdirSync(openApiDir, { recursive: true })
  for (const name of Object.values(OPENAPI_FILES)) copyFileSync(join(findOpenApiDir()!, name), join(openApiDir, name))
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

function build(api: 'ais' | 'pis'): void {
  const file = lensValidatorsFile(openApiDir, api)
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, buildLensValidators(api, readFileSync(join(openApiDir, OPENAPI_FILES[api]), 'utf8')))
}

describe('the lens validators built ahead of time', () => {
  it('has one validator per response schema, and each judges a body as the run-time compiled one does', () => {
    build('ais')
    const built = loadLensValidators(openApiDir, 'ais')
    expect(built).toBeDefined()
    const apis = readOpenApiFiles(openApiDir)
    const names = responseSchemaNames(apis.ais)
    expect(names).toContain('OBReadAccount6')
    expect(names.every((n) => typeof built![n] === 'function')).toBe(true)

    const compiled = lensAjv(apis)
    const broken = accountsBody()
    broken.Data.Account[0].OpeningDate = '2020-01-01'
    delete broken.Data.Account[0].AccountId
    const page = transactionsPage(3, 1, 1)
    const bodies: Array<[string, unknown]> = [
      ['OBReadAccount6', accountsBody()],
      ['OBReadAccount6', broken],
      ['OBReadAccount6', { Data: {} }],
      ['OBReadTransaction6', page],
      ['OBReadTransaction6', { ...page, Data: { Transaction: [{ Amount: 1 }] } }],
    ]
    for (const [name, body] of bodies) {
      const b = built![name]!
      const c = compiled.getSchema(`${lensSchemaId('ais')}#/$defs/${name}`)!
      expect(b(body), name).toBe(c(body))
      expect(b.errors ?? null).toEqual(c.errors ?? null)
    }
    expect(built!.OBReadAccount6!(broken)).toBe(false)
    expect(built!.OBReadAccount6!.errors!.map((e) => e.keyword).sort()).toEqual(['format', 'required'])
  })

  it('is not used once the OpenAPI file has changed since it was built, nor when it is missing', () => {
    build('pis')
    expect(loadLensValidators(openApiDir, 'pis')).toBeDefined()
    const file = join(openApiDir, OPENAPI_FILES.pis)
    writeFileSync(file, `${readFileSync(file, 'utf8')} `)
    expect(loadLensValidators(openApiDir, 'pis')).toBeUndefined()
    rmSync(lensValidatorsFile(openApiDir, 'pis'))
    expect(loadLensValidators(openApiDir, 'pis')).toBeUndefined()
  })

  it('is not used when the module cannot load', () => {
    const file = lensValidatorsFile(openApiDir, 'ais')
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, 'this is not JavaScript (')
    expect(loadLensValidators(openApiDir, 'ais')).toBeUndefined()
  })

  it('takes precedence in ObSchemas over compiling, which remains for what was not built', () => {
    const apis = readOpenApiFiles(findOpenApiDir()!)
    const stand = Object.assign(() => false, {
      errors: [{ keyword: 'const', instancePath: '/Data', schemaPath: '#/x', params: {}, message: 'built' }],
    })
    const schemas = new ObSchemas(apis, (api) => (api === 'ais' ? { OBReadAccount6: stand as never } : undefined))
    expect(schemas.check('ais', 'OBReadAccount6', accountsBody())[0]!.message).toBe('Data built')
    expect(schemas.check('ais', 'OBReadTransaction6', transactionsPage(2, 1, 1))).toEqual([])
  })
})
