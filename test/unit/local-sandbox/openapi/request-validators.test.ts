import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OPENAPI_DIR } from '../../../../src-main/local-sandbox/openapi/ob-openapi.ts'
import {
  buildRequestValidators,
  loadRequestValidators,
  REQUEST_SCHEMAS,
  requestValidatorsFile,
  sandboxAjv,
} from '../../../../src-main/local-sandbox/openapi/request-validators.ts'
import { consentBody } from '../../../integration/local-sandbox/pis/support/pis-bodies.ts'

const FILES = { ais: 'account-info.json', pis: 'payment-initiation.json' } as const

// A copy of resources/openapi in a root of its own: what is built here never touches out/validators.
let openApiDir: string
let root: string
const texts = () => ({
  ais: readFileSync(join(openApiDir, FILES.ais), 'utf8'),
  pis: readFileSync(join(openApiDir, FILES.pis), 'utf8'),
})
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ob-request-validators-'))
  openApiDir = join(root, 'resources', 'openapi')
  mkdirSync(openApiDir, { recursive: true })
  for (const name of Object.values(FILES)) copyFileSync(join(OPENAPI_DIR, name), join(openApiDir, name))
  const file = requestValidatorsFile(openApiDir)
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, buildRequestValidators(texts()))
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

const consent = consentBody()

describe('the sandbox request validators built ahead of time', () => {
  it('has every request schema, each judging a body as the run-time compiled one does', () => {
    const built = loadRequestValidators(openApiDir, texts())
    const keys = [...REQUEST_SCHEMAS.ais.map((n) => `ais:${n}`), ...REQUEST_SCHEMAS.pis.map((n) => `pis:${n}`)]
    expect([...built.keys()].sort()).toEqual(keys.sort())
    const parsed = { ais: JSON.parse(texts().ais).$defs, pis: JSON.parse(texts().pis).$defs }
    const compiled = sandboxAjv(parsed)
    const bodies: Array<[string, unknown]> = [
      ['pis:OBWriteDomesticConsent4', consent],
      [
        'pis:OBWriteDomestic2',
        { Data: { ConsentId: 'pdc-1', Initiation: consent.Data.Initiation }, Risk: consent.Risk },
      ],
      ['pis:OBWriteDomesticConsent4', { ...consent, Data: { Initiation: { InstructedAmount: { Amount: 'ten' } } } }],
      ['pis:OBWriteDomesticConsent4', {}],
      ['ais:OBReadConsent1', { Data: { Permissions: ['ReadAccountsBasic'] }, Risk: {} }],
      ['ais:OBReadConsent1', { Data: { Permissions: ['ReadEverything'], Extra: 1 } }],
    ]
    for (const [key, body] of bodies) {
      const [api, name] = key.split(':') as ['ais' | 'pis', string]
      const b = built.get(key)!
      const c = compiled.getSchema(`ob-v4-${api}#/$defs/${name}`)!
      expect(b(body), key).toBe(c(body))
      expect(b.errors ?? null).toEqual(c.errors ?? null)
    }
    expect(built.get('pis:OBWriteDomesticConsent4')!(consent)).toBe(true)
    expect(built.get('pis:OBWriteDomesticConsent4')!({})).toBe(false)
  })

  it('is not used once either OpenAPI file has changed, nor when it is missing', () => {
    expect(loadRequestValidators(openApiDir, { ...texts(), ais: `${texts().ais} ` }).size).toBe(0)
    expect(loadRequestValidators(join(root, 'other', 'root', 'openapi'), texts()).size).toBe(0)
  })
})
