// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { SandboxReportDto } from '../../../../../src-main/contract/api.ts'
import { ConformanceReport } from '../../../../../src-renderer/features/sandbox/conformance-report.tsx'
import { createAppStore } from '../../../../../src-renderer/store/store.ts'
import { fakeApi, fail } from '../../support/fake-api.ts'
import { el, renderWithStore } from '../../support/render.ts'

afterEach(cleanup)

const rule = (id: string, passed: number, failed: number): SandboxReportDto['rules'][number] => ({
  id,
  title: `Title of ${id}`,
  checks: `What ${id} checks.`,
  spec: `§5 for ${id}`,
  enforcement: 'refused',
  passed,
  failed,
  lastFailures: Array.from({ length: failed }, (_, i) => ({
    at: '2026-11-25T22:00:00.000Z',
    method: 'GET',
    path: '/open-banking/v4.0/aisp/accounts',
    interactionId: `0000000${i}-0000-4000-8000-000000000000`,
    status: 200,
    detail: `${id} went wrong ${i}`,
    spec: `§5 for ${id}`,
    refused: false,
  })),
})

function report(rules: SandboxReportDto['rules']): SandboxReportDto {
  const ok = rules.every((r) => !r.failed)
  return {
    clientId: 'c1',
    keyedBy: 'client',
    ok,
    requests: 7,
    firstSeen: '2026-11-25T21:59:00.000Z',
    lastSeen: '2026-11-25T22:00:00.000Z',
    rules,
  }
}

describe('ConformanceReport', () => {
  it('one row per rule, failed rules red with their failures expandable; Refresh reads the report again', async () => {
    let current = report([rule('headers.required', 3, 0), rule('pagination', 1, 2), rule('token.expiry', 0, 0)])
    const api = fakeApi({ 'sandbox.report': () => current })
    renderWithStore(createAppStore(api), el(ConformanceReport, { clientId: 'c1' }))
    await waitFor(() => expect(screen.getByLabelText('Conformance summary').textContent).toContain('1 rule failed'))
    expect(screen.getByLabelText('Conformance summary').className).toBe('text-fail')
    const row = (id: string) => screen.getByRole('row', { name: `Rule ${id}` })
    expect(row('headers.required').getAttribute('data-status')).toBe('pass')
    expect(row('pagination').getAttribute('data-status')).toBe('fail')
    expect(row('token.expiry').getAttribute('data-status')).toBe('unchecked')
    const failures = within(row('pagination')).getByLabelText('Failures of pagination')
    expect(failures.textContent).toContain('pagination went wrong 1')
    expect(failures.textContent).toContain('GET /open-banking/v4.0/aisp/accounts → 200 (answered; recorded)')
    expect(row('pagination').textContent).toContain('Rests on: §5 for pagination')
    current = report([rule('headers.required', 4, 0), rule('pagination', 3, 0)])
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }))
    await waitFor(() =>
      expect(screen.getByLabelText('Conformance summary').textContent).toContain(
        'Every rule the sandbox checked passed',
      ),
    )
    expect(api.callsOf('sandbox.report')).toEqual([{ clientId: 'c1' }, { clientId: 'c1' }])
  })

  it('nothing recorded yet is said plainly; other failures show the error panel', async () => {
    const api = fakeApi({ 'sandbox.report': () => fail('NOT_FOUND', 'Nothing is recorded for client c1 yet.') })
    renderWithStore(createAppStore(api), el(ConformanceReport, { clientId: 'c1' }))
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Conformance report' }).textContent).toContain(
        'Nothing is recorded for client c1 yet.',
      ),
    )
    expect(screen.queryByRole('alert')).toBeNull()
    cleanup()
    const broken = fakeApi({ 'sandbox.report': () => fail('HTTP_ERROR', 'The local directory answered 500.') })
    renderWithStore(createAppStore(broken), el(ConformanceReport, { clientId: 'c1' }))
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('The local directory answered 500.'))
  })
})
