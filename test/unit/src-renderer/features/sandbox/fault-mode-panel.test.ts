// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { SandboxFaultRuleDto } from '../../../../../src-main/contract/sandbox-admin.ts'
import { FaultModeBanner, FaultModePanel } from '../../../../../src-renderer/features/sandbox/fault-mode-panel.tsx'
import { createAppStore } from '../../../../../src-renderer/store/store.ts'
import { Fail, fakeApi } from '../../support/fake-api.ts'
import { el, h, renderWithStore } from '../../support/render.ts'

afterEach(cleanup)

const rule = (id: string, over: Partial<SandboxFaultRuleDto> = {}): SandboxFaultRuleDto => ({
  id,
  origin: 'base',
  method: 'GET',
  path: '/open-banking/v4.0/aisp/accounts',
  skip: 0,
  times: 1,
  fault: { kind: 'status', status: 503 },
  seen: 0,
  hits: 0,
  exhausted: false,
  ...over,
})

const refused = (field: string, cause: string) =>
  new Fail({
    code: 'INVALID_INPUT',
    what: 'The local sandbox refused the fault rule.',
    cause,
    fix: `Correct ${field} and add it again.`,
    details: { field, status: 400 },
  })

function both() {
  return h('div', null, el(FaultModeBanner, {}), el(FaultModePanel, {}))
}

describe('FaultModePanel', () => {
  it('lists the rules with their counts and says fault mode is on; Refresh reads them again', async () => {
    let rules = [rule('accounts-down'), rule('slow', { fault: { kind: 'latency', ms: 800 }, times: undefined })]
    const api = fakeApi({ 'sandbox.faults': () => ({ rules }) })
    renderWithStore(createAppStore(api), both())
    const row = await screen.findByRole('row', { name: 'Rule accounts-down' })
    expect(row.textContent).toContain('GET /open-banking/v4.0/aisp/accounts on base')
    expect(row.textContent).toContain('Status 503 instead of the answer, 1 request')
    expect(screen.getByRole('row', { name: 'Rule slow' }).textContent).toContain('every request')
    expect(screen.getByLabelText('Fault mode state').textContent).toMatch(/^On: 2 of 2 rules active/)
    expect(screen.getByRole('status').textContent).toContain('Fault mode is on: 2 rules of the local sandbox active')
    rules = [rule('accounts-down', { seen: 1, hits: 1, exhausted: true }), rules[1]!]
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }))
    await waitFor(() => expect(screen.getByLabelText('Hits of accounts-down').textContent).toBe('1'))
    expect(screen.getByRole('row', { name: 'Rule accounts-down' }).textContent).toContain('Exhausted')
    expect(screen.getByRole('status').textContent).toContain('1 rule of the local sandbox active (slow)')
    rules = [rules[0]!]
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }))
    await waitFor(() => expect(screen.getByLabelText('Fault mode state').textContent).toMatch(/^Off: every rule/))
    expect(screen.queryByRole('status')).toBeNull()
  })

  it('a rule refused by the sandbox shows its what, cause and fix, marks the field, and keeps what was typed', async () => {
    const api = fakeApi({
      'sandbox.faults': () => ({ rules: [] }),
      'sandbox.addFault': (input: { rule?: { fault: { ms: unknown } }; json?: string }) =>
        input.rule && input.rule.fault.ms === '2s'
          ? refused(
              'rule.fault.ms',
              'rule.fault.ms is "2s": it must be a whole number of milliseconds from 0 to 120000',
            )
          : input.json !== undefined && !input.json.includes('"id"')
            ? refused('rule', 'the body is not valid JSON (Unexpected end of JSON input)')
            : { rules: [rule('slow')], added: 'slow' },
    })
    renderWithStore(createAppStore(api), el(FaultModePanel, {}))
    await screen.findByText('Off: no rule. The local sandbox answers as a healthy bank.')
    const form = screen.getByRole('form', { name: 'Add a fault rule' })
    fireEvent.change(within(form).getByLabelText('Fault'), { target: { value: 'latency' } })
    fireEvent.change(within(form).getByLabelText('Delay (ms)'), { target: { value: '2s' } })
    fireEvent.change(within(form).getByLabelText('Path'), { target: { value: '/token' } })
    fireEvent.click(within(form).getByRole('button', { name: 'Add rule' }))
    const alert = await within(form).findByRole('alert')
    expect(alert.textContent).toContain('The rule was not added: The local sandbox refused the fault rule.')
    expect(alert.textContent).toContain('Cause rule.fault.ms is "2s": it must be a whole number of milliseconds')
    expect(alert.textContent).toContain('Fix Correct rule.fault.ms and add it again.')
    const delay = within(form).getByLabelText('Delay (ms)') as HTMLInputElement
    expect(delay.value).toBe('2s')
    expect(delay.getAttribute('aria-invalid')).toBe('true')
    expect((within(form).getByLabelText('Path') as HTMLInputElement).value).toBe('/token')
    expect(api.callsOf('sandbox.addFault')).toEqual([
      { rule: { origin: 'base', method: 'GET', path: '/token', times: 1, fault: { kind: 'latency', ms: '2s' } } },
    ])

    // The JSON box starts from the form's rule; a broken text stays as typed.
    fireEvent.click(within(form).getByRole('radio', { name: 'As JSON (any rule)' }))
    const box = within(form).getByLabelText('Rule (JSON)') as HTMLTextAreaElement
    expect(JSON.parse(box.value)).toMatchObject({ path: '/token', fault: { kind: 'latency', ms: '2s' } })
    fireEvent.change(box, { target: { value: '{"fault": {"kind": "reset"}' } })
    fireEvent.click(within(form).getByRole('button', { name: 'Add rule' }))
    await waitFor(() => expect(within(form).getByRole('alert').textContent).toContain('not valid JSON'))
    expect(box.value).toBe('{"fault": {"kind": "reset"}')
    expect(box.getAttribute('aria-invalid')).toBe('true')
    fireEvent.change(box, { target: { value: '{"id": "slow", "fault": {"kind": "latency", "ms": 10}}' } })
    fireEvent.click(within(form).getByRole('button', { name: 'Add rule' }))
    await screen.findByRole('row', { name: 'Rule slow' })
    expect(within(form).queryByRole('alert')).toBeNull()
    expect(api.callsOf('sandbox.addFault').at(-1)).toEqual({
      json: '{"id": "slow", "fault": {"kind": "latency", "ms": 10}}',
    })
  })

  it('removes one rule; clears all only after the console asks, and not when the user cancels', async () => {
    let rules = [rule('a'), rule('b')]
    const api = fakeApi({
      'sandbox.faults': () => ({ rules }),
      'sandbox.removeFault': ({ id }: { id: string }) => {
        rules = rules.filter((r) => r.id !== id)
        return { rules, removed: 1 }
      },
      'sandbox.clearFaults': () => {
        const removed = rules.length
        rules = []
        return { rules, removed }
      },
    })
    renderWithStore(createAppStore(api), el(FaultModePanel, {}))
    fireEvent.click(await screen.findByRole('button', { name: 'Remove rule a' }))
    await waitFor(() => expect(screen.queryByRole('row', { name: 'Rule a' })).toBeNull())
    expect(api.callsOf('sandbox.removeFault')).toEqual([{ id: 'a' }])
    fireEvent.click(screen.getByRole('button', { name: 'Clear all' }))
    let dialog = screen.getByRole('alertdialog', { name: 'Confirm clearing every fault rule' })
    expect(dialog.textContent).toContain('Remove all 1 fault rule?')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    expect(api.callsOf('sandbox.clearFaults')).toEqual([])
    fireEvent.click(screen.getByRole('button', { name: 'Clear all' }))
    dialog = screen.getByRole('alertdialog', { name: 'Confirm clearing every fault rule' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Clear all rules' }))
    await screen.findByText('Off: no rule. The local sandbox answers as a healthy bank.')
    expect(api.callsOf('sandbox.clearFaults')).toHaveLength(1)
    expect((screen.getByRole('button', { name: 'Clear all' }) as HTMLButtonElement).disabled).toBe(true)
  })

  it('a rule already gone: the error is shown and the list read again', async () => {
    let rules = [rule('a')]
    const api = fakeApi({
      'sandbox.faults': () => ({ rules }),
      'sandbox.removeFault': () => {
        rules = []
        return new Fail({ code: 'NOT_FOUND', what: 'The local sandbox has no fault rule "a".', cause: 'c', fix: 'f' })
      },
    })
    renderWithStore(createAppStore(api), el(FaultModePanel, {}))
    fireEvent.click(await screen.findByRole('button', { name: 'Remove rule a' }))
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('no fault rule "a"'))
    await waitFor(() => expect(screen.queryByRole('row', { name: 'Rule a' })).toBeNull())
    expect(api.callsOf('sandbox.faults')).toHaveLength(2)
  })
})
