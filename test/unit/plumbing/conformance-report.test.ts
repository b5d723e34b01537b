import { describe, expect, it } from 'vitest'
import { ClientRecord } from '../../../src-main/local-sandbox/conformance/client-record.ts'
import { DEFAULT_CONFORMANCE_LIMITS } from '../../../src-main/local-sandbox/conformance/report-types.ts'
import { readConformanceReport } from '../../../src-main/plumbing/conformance-report.ts'

/** The report's JSON, loosely typed so that a test can spoil any member. */
interface Json {
  [member: string]: unknown
  rules?: Array<Record<string, unknown>>
}

/** A report as the sandbox makes it: a client that sent no interaction id once and a good one once. */
function sandboxReport(): Json {
  const record = new ClientRecord('c1', 'client', DEFAULT_CONFORMANCE_LIMITS, '2026-11-29T10:00:00.000Z')
  const facts = (at: string) => ({
    at,
    method: 'GET',
    path: '/open-banking/v4.0/aisp/accounts',
    interactionId: 'i',
    status: 200,
  })
  record.record([{ rule: 'headers.required', ok: true }], facts('2026-11-29T10:00:01.000Z'))
  record.interactionId(undefined, facts('2026-11-29T10:00:01.000Z'))
  record.interactionId('6f1c1b4e-3d1a-4b7e-9a55-0a0b0c0d0e0f', facts('2026-11-29T10:00:02.000Z'))
  // Through JSON, as the admin route sends it.
  return JSON.parse(JSON.stringify(record.report())) as Json
}

describe('the conformance report as it travels', () => {
  it("reads the sandbox's own report, its limits and any member it does not name let through", () => {
    const json = sandboxReport()
    const read = readConformanceReport(json)
    expect('report' in read && read.report).toMatchObject({ clientId: 'c1', ok: false, requests: 1 })
    const failed = 'report' in read ? read.report.rules.find((r) => r.id === 'interaction-id') : undefined
    expect(failed).toMatchObject({ passed: 1, failed: 1, lastFailures: [{ refused: false, status: 200 }] })
  })

  it('names the first member that is missing or not of its type, as an OB-style path', () => {
    const cases: Array<[(r: Json) => void, string]> = [
      [(r) => delete r.rules, 'rules is missing'],
      [(r) => (r.ok = 'yes'), 'ok must be boolean'],
      [(r) => (r.keyedBy = 'someone'), 'keyedBy must be equal to one of the allowed values'],
      [(r) => (r.rules![1]!.passed = '3'), 'rules[1].passed must be integer'],
      [(r) => (r.rules![0]!.failed = -1), 'rules[0].failed must be >= 0'],
      [(r) => delete r.rules![2]!.lastFailures, 'rules[2].lastFailures is missing'],
    ]
    for (const [spoil, problem] of cases) {
      const json = sandboxReport()
      spoil(json)
      expect(readConformanceReport(json)).toEqual({ problem })
    }
    expect(readConformanceReport(null)).toEqual({ problem: 'the answer must be object' })
    expect(readConformanceReport([])).toEqual({ problem: 'the answer must be object' })
  })
})
