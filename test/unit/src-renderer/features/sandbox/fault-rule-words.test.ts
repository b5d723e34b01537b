import { describe, expect, it } from 'vitest'
import type { SandboxFaultRuleDto } from '../../../../../src-main/contract/sandbox-admin.ts'
import {
  activeRules,
  EMPTY_FAULT_FORM,
  faultWords,
  formFieldOf,
  matchWords,
  ruleFromForm,
  timesWords,
} from '../../../../../src-renderer/features/sandbox/fault-rule-words.ts'

const rule = (over: Partial<SandboxFaultRuleDto>): SandboxFaultRuleDto => ({
  id: 'f1',
  origin: 'any',
  path: '/**',
  skip: 0,
  fault: { kind: 'reset' },
  seen: 0,
  hits: 0,
  exhausted: false,
  ...over,
})

describe('fault rule words', () => {
  it('the form builds the rule as typed: numbers as numbers, anything else as the text, for the sandbox to judge', () => {
    expect(ruleFromForm(EMPTY_FAULT_FORM)).toEqual({
      origin: 'base',
      method: 'GET',
      path: '/open-banking/v4.0/aisp/accounts',
      times: 1,
      fault: { kind: 'status', status: 503 },
    })
    expect(
      ruleFromForm({ ...EMPTY_FAULT_FORM, kind: 'latency', ms: '2s', times: ' ', method: '', path: '', id: ' slow ' }),
    ).toEqual({ id: 'slow', origin: 'base', fault: { kind: 'latency', ms: '2s' } })
    expect(ruleFromForm({ ...EMPTY_FAULT_FORM, kind: 'latency', ms: '-1.5', times: 'twice' })).toMatchObject({
      times: 'twice',
      fault: { kind: 'latency', ms: -1.5 },
    })
    // A handshake has no method or path: the sandbox ignores them, the form does not send them.
    expect(ruleFromForm({ ...EMPTY_FAULT_FORM, kind: 'tls-handshake', origin: 'auth' })).toEqual({
      origin: 'auth',
      times: 1,
      fault: { kind: 'tls-handshake' },
    })
    expect(ruleFromForm({ ...EMPTY_FAULT_FORM, kind: 'lost-response' }).fault).toEqual({ kind: 'lost-response' })
  })

  it("a refused rule's field names the form's field when the form has it", () => {
    expect(formFieldOf('rule.fault.ms')).toBe('ms')
    expect(formFieldOf('rule.fault.status')).toBe('status')
    expect(formFieldOf('rule.times')).toBe('times')
    expect(formFieldOf('rule.id')).toBe('id')
    expect(formFieldOf('rule.fault.headers')).toBeUndefined()
    expect(formFieldOf('rule.fault.kind')).toBeUndefined()
    expect(formFieldOf(undefined)).toBeUndefined()
  })

  it('says what each rule picks, does and how often; exhausted rules are not active', () => {
    const slow = rule({ method: 'GET', path: '/token', origin: 'auth', fault: { kind: 'latency', ms: 1500 }, times: 2 })
    expect([matchWords(slow), faultWords(slow.fault), timesWords(slow)]).toEqual([
      'GET /token on auth',
      'Latency: the answer 1500 ms late',
      '2 requests',
    ])
    const tls = rule({ origin: 'base', fault: { kind: 'tls-handshake' }, skip: 1, times: 1 })
    expect([matchWords(tls), timesWords(tls)]).toEqual([
      'new connections to base',
      'after letting 1 through, 1 connection',
    ])
    expect(timesWords(rule({}))).toBe('every request')
    expect(matchWords(rule({}))).toBe('any method /** on any origin')
    expect(faultWords({ kind: 'status', status: 503 })).toBe('Status 503 instead of the answer')
    expect(faultWords({ kind: 'html-error' })).toBe('Gateway HTML error page (502)')
    expect(faultWords({ kind: 'pagination', mode: 'loop' })).toBe('Broken pagination (loop)')
    expect(faultWords({ kind: 'truncate' })).toBe('Body cut in half')
    expect(activeRules([rule({ id: 'a' }), rule({ id: 'b', exhausted: true })]).map((r) => r.id)).toEqual(['a'])
    expect(activeRules(undefined)).toEqual([])
  })
})
