import { Ajv } from 'ajv'
import { describe, expect, it } from 'vitest'
import {
  RULE_SCHEMA,
  FaultRuleError,
  globToRegExp,
  parseFaultRule,
  parseFaultRules,
} from '../../../../src-main/local-sandbox/faults/fault-rules.ts'

function counter() {
  let n = 0
  return () => `f${++n}`
}

function error(fn: () => unknown): FaultRuleError {
  try {
    fn()
  } catch (err) {
    if (err instanceof FaultRuleError) return err
    throw err
  }
  throw new Error('expected a FaultRuleError')
}

describe('parseFaultRule', () => {
  it('fills in the defaults', () => {
    expect(parseFaultRule({ fault: { kind: 'reset' } }, 'rule', counter())).toEqual({
      id: 'f1',
      origin: 'any',
      path: '/**',
      skip: 0,
      fault: { kind: 'reset' },
    })
    expect(
      parseFaultRule({
        id: 'x',
        origin: 'base',
        method: 'get',
        path: '/a/*',
        skip: 2,
        times: 1,
        fault: { kind: 'latency', ms: 10 },
      }),
    ).toEqual({
      id: 'x',
      origin: 'base',
      method: 'GET',
      path: '/a/*',
      skip: 2,
      times: 1,
      fault: { kind: 'latency', ms: 10 },
    })
  })

  it('accepts every kind', () => {
    const kinds = [
      { kind: 'latency', ms: 0 },
      { kind: 'status', status: 429, headers: { 'Retry-After': 'Wed, 21 Oct 2026 07:28:00 GMT' } },
      { kind: 'status', status: 200, body: 'not json', contentType: 'text/plain' },
      { kind: 'status', status: 500, body: { Code: '500', Message: 'x', Errors: [] } },
      { kind: 'html-error' },
      { kind: 'html-error', status: 504 },
      { kind: 'reset' },
      { kind: 'lost-response' },
      { kind: 'truncate' },
      { kind: 'truncate', bytes: 10 },
      { kind: 'oversize', bytes: 1024, chunked: true },
      { kind: 'mutate', set: { '/Data': null }, remove: ['/Links'] },
      { kind: 'pagination', mode: 'off-host' },
      { kind: 'tls-handshake' },
    ]
    for (const fault of kinds) expect(parseFaultRule({ fault }).fault).toEqual(fault)
  })

  it.each([
    [{}, 'rule.fault', /rule.fault is missing/],
    [{ fault: {} }, 'rule.fault.kind', /missing: give one of latency, status/],
    [{ fault: { kind: 'explode' } }, 'rule.fault.kind', /"explode": it must be one of latency/],
    [{ fault: { kind: 'latency' } }, 'rule.fault.ms', /rule.fault.ms is missing/],
    [{ fault: { kind: 'latency', ms: -1 } }, 'rule.fault.ms', /is -1: it must be a whole number of milliseconds/],
    [{ fault: { kind: 'latency', ms: '10' } }, 'rule.fault.ms', /is "10"/],
    [{ fault: { kind: 'status', status: 99 } }, 'rule.fault.status', /is 99: it must be an HTTP status code/],
    [
      { fault: { kind: 'status', status: 503, headers: { 'retry-after': 2 } } },
      'rule.fault.headers.retry-after',
      /is 2/,
    ],
    [{ fault: { kind: 'reset', ms: 5 } }, 'rule.fault.ms', /not a field of a "reset" fault/],
    [{ fault: { kind: 'pagination', mode: 'sideways' } }, 'rule.fault.mode', /"sideways": it must be one of "loop"/],
    [{ fault: { kind: 'mutate' } }, 'rule.fault', /nothing to change/],
    [{ fault: { kind: 'mutate', set: { Data: 1 } } }, 'rule.fault.set["Data"]', /JSON pointer/],
    [
      { fault: { kind: 'reset' }, origin: 'bank' },
      'rule.origin',
      /"bank": it must be "base", "auth", "directory" or "any"/,
    ],
    [{ fault: { kind: 'reset' }, path: 'accounts' }, 'rule.path', /starting with "\/"/],
    [{ fault: { kind: 'reset' }, times: 0 }, 'rule.times', /1 or more/],
    [{ fault: { kind: 'reset' }, colour: 'red' }, 'rule.colour', /not a field of a fault rule/],
    ['reset', 'rule', /a fault rule is a JSON object/],
  ])('refuses %j naming %s', (input, field, message) => {
    const err = error(() => parseFaultRule(input))
    expect(err.field).toBe(field)
    expect(err.message).toMatch(message)
  })
})

describe('parseFaultRules', () => {
  it('reads {rules} or a bare list, assigning ids', () => {
    expect(
      parseFaultRules({ rules: [{ fault: { kind: 'reset' } }, { fault: { kind: 'reset' } }] }, counter()).map(
        (r) => r.id,
      ),
    ).toEqual(['f1', 'f2'])
    expect(parseFaultRules([{ id: 'a', fault: { kind: 'reset' } }], counter()).map((r) => r.id)).toEqual(['a'])
  })

  it('names the rule by its index', () => {
    const err = error(() =>
      parseFaultRules({ rules: [{ fault: { kind: 'reset' } }, { fault: { kind: 'latency', ms: 'slow' } }] }, counter()),
    )
    expect(err.field).toBe('rules[1].fault.ms')
    expect(
      error(() =>
        parseFaultRules(
          {
            rules: [
              { id: 'a', fault: { kind: 'reset' } },
              { id: 'a', fault: { kind: 'reset' } },
            ],
          },
          counter(),
        ),
      ).field,
    ).toBe('rules[1].id')
    expect(error(() => parseFaultRules({ rule: [] }, counter())).field).toBe('rule')
    expect(error(() => parseFaultRules({}, counter())).message).toMatch(/rules is missing/)
    expect(error(() => parseFaultRules({ rules: 3 }, counter())).field).toBe('rules')
  })
})

describe('globToRegExp', () => {
  it('matches * within a segment and ** across segments', () => {
    const one = globToRegExp('/open-banking/v4.0/aisp/accounts/*/transactions')
    expect(one.test('/open-banking/v4.0/aisp/accounts/acc-1/transactions')).toBe(true)
    expect(one.test('/open-banking/v4.0/aisp/accounts/a/b/transactions')).toBe(false)
    expect(one.test('/open-banking/v4-0/aisp/accounts/acc-1/transactions')).toBe(false)
    const deep = globToRegExp('/open-banking/**')
    expect(deep.test('/open-banking/v4.0/pisp/domestic-payments/p-1/payment-details')).toBe(true)
    expect(deep.test('/token')).toBe(false)
    expect(globToRegExp('/**').test('/')).toBe(true)
    expect(globToRegExp('/a*c').test('/abbc')).toBe(true)
    expect(globToRegExp('/a(b)').test('/a(b)')).toBe(true)
  })
})

describe('the fault rule schema', () => {
  it('is a valid JSON Schema (the module compiles it without the meta-schema check)', () => {
    const ajv = new Ajv({ strict: false, discriminator: true })
    expect(ajv.validateSchema(RULE_SCHEMA), ajv.errorsText()).toBe(true)
  })
})
