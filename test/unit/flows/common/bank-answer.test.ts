import { describe, expect, it } from 'vitest'
import { AppError } from '../../../../src-main/core/app-error.ts'
import { Ajv } from 'ajv'
import '../../../../src-main/flows/ais/ais-flow.ts'
import '../../../../src-main/flows/pis/pis-flow.ts'
import {
  answerShapes,
  valueInWords,
  jsonPath,
  obAnswerShape,
  readBankAnswer,
  type AnswerSpec,
} from '../../../../src-main/flows/common/bank-answer.ts'
import type { FlowResponse } from '../../../../src-main/flows/flow-context.ts'

const spec: AnswerSpec = {
  what: 'Reading the accounts',
  status: 200,
  shape: obAnswerShape('an account list (OBReadAccount6)', {
    type: 'object',
    required: ['Account'],
    properties: {
      Account: {
        type: 'array',
        items: { type: 'object', required: ['AccountId'], properties: { AccountId: { type: 'string' } } },
      },
    },
  }),
  fix: 'Check the consent has ReadAccountsDetail.',
}
const good = {
  Data: { Account: [{ AccountId: 'a1' }] },
  Links: { Self: 'https://bank/accounts' },
  Meta: { TotalPages: 1 },
}

function res(
  status: number,
  body: unknown,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): FlowResponse {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  return {
    exchangeId: 'ex-1',
    status,
    headers: { 'x-fapi-interaction-id': '11111111-2222-4333-8444-555555555555', ...headers },
    text,
  }
}

function failure(r: FlowResponse): AppError {
  try {
    readBankAnswer(r, spec)
  } catch (err) {
    expect(err).toBeInstanceOf(AppError)
    return err as AppError
  }
  throw new Error('expected an error')
}

describe('readBankAnswer', () => {
  it('returns the body of a good answer', () => {
    expect(readBankAnswer(res(200, good), spec)).toEqual(good)
    expect(readBankAnswer(res(200, good, { 'content-type': 'application/json; charset=utf-8' }), spec)).toEqual(good)
  })

  it('names the JSON path, what was expected and what came', () => {
    const nul = failure(res(200, { ...good, Data: null }))
    expect(nul.code).toBe('BANK_ANSWER_INVALID')
    expect(nul.what).toBe(
      "Reading the accounts: in the bank's answer, Data is null where an account list (OBReadAccount6) needs an object.",
    )
    expect(nul.details).toMatchObject({
      path: 'Data',
      expected: 'an object',
      got: 'null',
      interactionId: '11111111-2222-4333-8444-555555555555',
    })
    expect(nul.fix).toContain('x-fapi-interaction-id 11111111-2222-4333-8444-555555555555')
    expect(failure(res(200, { ...good, Data: {} })).what).toContain('Data.Account is nothing (the member is missing)')
    expect(failure(res(200, { ...good, Data: { Account: [{ AccountId: 5 }] } })).what).toContain(
      'Data.Account[0].AccountId is the number 5 where an account list (OBReadAccount6) needs a string',
    )
    expect(failure(res(200, { Data: good.Data })).what).toContain('Links is nothing')
  })

  it('tells an empty body, an HTML page, a wrong content type and bad JSON apart', () => {
    expect(failure(res(200, '')).what).toMatch(/answered 200 with an empty body/)
    expect(
      failure(
        res(200, '<html><head><title>Down for maintenance</title></head></html>', { 'content-type': 'text/html' }),
      ).what,
    ).toMatch(/an HTML page \("Down for maintenance"\)/)
    expect(failure(res(200, JSON.stringify(good), { 'content-type': 'text/plain' })).what).toMatch(
      /Content-Type "text\/plain" where application\/json/,
    )
    expect(failure(res(200, JSON.stringify(good), {})).what).toMatch(/Content-Type \(none\)/)
    const cut = failure(res(200, '{"Data":{"Acc'))
    expect([cut.what, cut.cause]).toEqual([
      expect.stringMatching(/13 bytes, declared JSON\) is not valid JSON/),
      expect.stringMatching(/cut its answer short/),
    ])
    expect(failure(res(200, '{Data: 1}')).cause).toMatch(/malformed JSON/)
  })

  it('refuses another status: a redirect, or a success the call does not produce', () => {
    expect(failure(res(302, '', { location: 'https://login.example/' })).what).toMatch(
      /302 \(a redirect to https:\/\/login\.example\/\) where 200/,
    )
    expect(failure(res(201, good)).what).toMatch(/answered 201 where 200/)
  })

  it("explains an error status through the http layer, with the bank's codes and Retry-After", () => {
    const ob = failure(
      res(500, {
        Code: '500',
        Message: 'Boom',
        Errors: [{ ErrorCode: 'UK.OBIE.UnexpectedError', Message: 'core down' }],
      }),
    )
    expect(ob.code).toBe('OB_ERROR')
    expect(ob.cause).toMatch(/core down .*Code and Message: 500: Boom/)
    expect(ob.fix).not.toContain('ReadAccountsDetail')
    const limited = failure(res(429, '', { 'retry-after': 'Wed, 21 Oct 2099 07:28:00 GMT' }))
    expect(limited.code).toBe('HTTP_ERROR')
    expect(limited.fix).toMatch(/Retry-After: until 07:28:00 UTC on 2099-10-21/)
    expect(limited.fix).not.toMatch(/GMT s/)
    const page = failure(
      res(502, '<html><head><title>502 Bad Gateway</title></head></html>', { 'content-type': 'text/html' }),
    )
    expect(page.cause).toMatch(/HTML page \("502 Bad Gateway"\)/)
    const refused = failure(
      res(403, {
        Code: '403',
        Message: 'no',
        Errors: [{ ErrorCode: 'UK.OBIE.Resource.ConsentMismatch', Message: 'x' }],
      }),
    )
    expect(refused.fix).toContain('ReadAccountsDetail')
  })
})

describe('helpers', () => {
  it('jsonPath and valueInWords', () => {
    expect(jsonPath('/Data/Account/0/AccountId')).toBe('Data.Account[0].AccountId')
    expect(jsonPath('')).toBe('the body')
    expect([null, undefined, [], [1], {}, 'x', 3, true].map(valueInWords)).toEqual([
      'null',
      'nothing',
      'an empty list',
      'a list of 1',
      'an object',
      'the string "x"',
      'the number 3',
      'the boolean true',
    ])
  })
})

describe('every bank-answer shape the steps make', () => {
  // The shapes are compiled without the meta-schema check on every start; it is made here, over all of them.
  it('is a valid JSON Schema and compiles in strict mode', () => {
    const ajv = new Ajv({ strict: false })
    expect(answerShapes().length).toBeGreaterThan(8)
    for (const shape of answerShapes())
      expect(ajv.validateSchema(shape.schema), `${shape.name}: ${ajv.errorsText()}`).toBe(true)
    // Each compiles in strict mode (compiled on first use in the steps, so a strict error would show late).
    for (const shape of answerShapes()) expect(typeof shape.validate, shape.name).toBe('function')
  })
})

describe('readBankAnswer: bytes before the JSON', () => {
  it('names a UTF-8 byte order mark as such, not as an unexpected token', () => {
    const bom = failure(res(200, `\uFEFF${JSON.stringify(good)}`))
    expect(bom.code).toBe('BANK_ANSWER_INVALID')
    expect(bom.what).toMatch(/starts with a UTF-8 byte order mark \(the bytes EF BB BF/)
    expect(bom.cause).toMatch(/RFC 8259 §8\.1/)
    expect(`${bom.what} ${bom.cause}`).not.toMatch(/Unexpected token/)
  })
})
