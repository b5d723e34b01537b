import { describe, expect, it } from 'vitest'
import {
  answerShape,
  answerShapeAjv,
  answerShapeKey,
  answerShapes,
  useBuiltAnswerShapes,
} from '../../../src-main/flows/common/bank-answer.ts'
import {
  buildAnswerShapeValidators,
  loadAnswerShapeValidators,
} from '../../../src-main/services/answer-shape-validators.ts'
import { validatorsOfModule } from '../../support/standalone-module.ts'

/** The module `buildAnswerShapeValidators` writes, loaded as the console loads it. */
const builtNow = () => validatorsOfModule(buildAnswerShapeValidators())

/** Answers that fit some shapes and not others: empty, wrong types, a v4.0 envelope, a token answer. */
const ANSWERS: unknown[] = [
  null,
  {},
  [],
  'text',
  { Data: {}, Links: { Self: 'https://bank/x' } },
  { Data: {}, Links: { Self: '' } },
  { Data: { Account: [{ AccountId: 'a1' }] }, Links: { Self: 'https://bank/accounts' }, Meta: { TotalPages: 1 } },
  { Data: { Account: [{ AccountId: '' }] }, Links: { Self: 'https://bank/accounts' }, Meta: { TotalPages: -1 } },
  { access_token: 't', token_type: 'Bearer', expires_in: 3600 },
  { access_token: 1, token_type: 'Bearer' },
  { issuer: 'https://as', authorization_endpoint: 'a', token_endpoint: 't', jwks_uri: 'j' },
]

describe('the answer shapes’ validators built ahead (out/validators/answer-shapes.cjs)', () => {
  it('hold one validator for every shape the AIS and PIS steps make, in the module npm test built', () => {
    // npm test builds out/ first (the unit project's global set-up), so the module is there and current.
    const loaded = loadAnswerShapeValidators()!
    expect(answerShapes().length).toBeGreaterThan(8)
    for (const shape of answerShapes()) expect(loaded.has(answerShapeKey(shape)), shape.name).toBe(true)
  })

  it('answer as the validators compiled at run time do, their errors included', () => {
    const built = builtNow()
    const ajv = answerShapeAjv()
    for (const shape of answerShapes()) {
      const b = built.get(answerShapeKey(shape))!
      const c = ajv.compile(shape.schema)
      for (const answer of ANSWERS) {
        expect(b(answer), `${shape.name}: ${JSON.stringify(answer)}`).toBe(c(answer))
        expect(b.errors ?? null).toEqual(c.errors ?? null)
      }
    }
  })

  it('are what a shape validates with once the console gives them; a shape they do not hold is compiled', () => {
    const built = builtNow()
    let loads = 0
    useBuiltAnswerShapes(() => (loads++, built))
    const [first, second] = answerShapes()
    expect(first!.validate).toBe(built.get(answerShapeKey(first!)))
    expect(second!.validate).toBe(built.get(answerShapeKey(second!)))
    // A shape the module was not built with (here: made after it), under a name a built one has, is compiled.
    const changed = answerShape<{ issuer: string }>(first!.name, {
      type: 'object',
      required: ['issuer'],
      properties: { issuer: { type: 'string' } },
    })
    expect(built.has(answerShapeKey(changed))).toBe(false)
    expect([changed.validate({ issuer: 'x' }), changed.validate({})]).toEqual([true, false])
    expect(loads).toBe(1)
  })

  it('leave every shape compiled at run time when the module cannot be read', () => {
    useBuiltAnswerShapes(() => undefined)
    const shape = answerShape<{ n: number }>('a test answer', {
      type: 'object',
      required: ['n'],
      properties: { n: { type: 'number' } },
    })
    expect([shape.validate({ n: 1 }), shape.validate({})]).toEqual([true, false])
  })
})
