import { describe, expect, it } from 'vitest'
import type { FlowProgress } from '../../../src-main/contract/flows.ts'
import { FlowRun, toTransportError, type StepDefinition } from '../../../src-main/flows/step-machine.ts'

type Ctx = { calls: string[]; failToken?: boolean }

const steps: StepDefinition<Ctx>[] = [
  {
    id: 'token',
    title: 'Client-credentials token',
    explanation: 'Gets a token.',
    async run(ctx, scope) {
      ctx.calls.push('token')
      scope.exchange('ex-1')
      if (ctx.failToken)
        throw Object.assign(new Error('boom'), { code: 'TLS_CLIENT_CERT_REFUSED', what: 'w', cause: 'c', fix: 'f' })
      return { output: { accessToken: 'at' }, summary: 'token' }
    },
  },
  {
    id: 'consent',
    title: 'Account access consent',
    explanation: 'Creates a consent.',
    requires: ['token'],
    async run(ctx, scope) {
      ctx.calls.push('consent:' + scope.output<{ accessToken: string }>('token').accessToken)
      return {
        output: { consentId: 'aac-1' },
        checks: [{ name: 'Status', pass: true, expected: 'AWAU', actual: 'AWAU' }],
      }
    },
  },
  {
    id: 'check',
    title: 'Checks',
    explanation: 'Checks.',
    requires: ['consent'],
    async run() {
      return {
        output: 1,
        checks: [{ name: 'nonce', pass: false, expected: 'n1', actual: 'n2', hint: 'send the same nonce' }],
      }
    },
  },
]

function flow(ctx: Ctx) {
  const events: FlowProgress[] = []
  return { run: new FlowRun('f1', 'ais', 'env', steps, ctx, (p) => events.push(p)), events }
}

describe('FlowRun', () => {
  it('runs steps in order, passing outputs, and stops at the first failed check', async () => {
    const ctx: Ctx = { calls: [] }
    const { run, events } = flow(ctx)
    const state = await run.runAll()
    expect(ctx.calls).toEqual(['token', 'consent:at'])
    expect(state.steps.map((s) => s.status)).toEqual(['done', 'done', 'failed'])
    expect(state.steps[0]!.exchangeIds).toEqual(['ex-1'])
    const failed = state.steps[2]!
    expect(failed.error?.code).toBe('FLOW_CHECK_FAILED')
    expect(failed.error?.cause).toContain('nonce: expected n1, got n2')
    expect(failed.error?.fix).toBe('send the same nonce')
    expect(events.filter((e) => e.step.status === 'running')).toHaveLength(3)
  })

  it('refuses to run a step whose prerequisites have not run, naming them', async () => {
    const { run } = flow({ calls: [] })
    const s = await run.runStep('consent')
    expect(s.status).toBe('failed')
    expect(s.error).toMatchObject({ code: 'FLOW_STEP_NOT_READY' })
    expect(s.error?.fix).toContain('Client-credentials token')
  })

  it('keeps an AppError-shaped error and re-runs a failed step', async () => {
    const ctx: Ctx = { calls: [], failToken: true }
    const { run } = flow(ctx)
    const first = await run.runStep('token')
    expect(first.error).toEqual({ code: 'TLS_CLIENT_CERT_REFUSED', what: 'w', cause: 'c', fix: 'f' })
    ctx.failToken = false
    const second = await run.runStep('token')
    expect(second.status).toBe('done')
    expect(second.error).toBeUndefined()
    expect(ctx.calls).toEqual(['token', 'token'])
  })

  it('turns a plain error into INTERNAL with its message', () => {
    expect(toTransportError(new Error('socket hang up'))).toMatchObject({ code: 'INTERNAL', what: 'socket hang up' })
  })
})

describe('FlowRun skipped steps', () => {
  it('marks a step that does not apply as skipped and goes on to the next', async () => {
    const defs: StepDefinition<object>[] = [
      {
        id: 'a',
        title: 'A',
        explanation: 'a',
        run: async () => ({ output: 1, skipped: true, summary: 'skipped: no permission' }),
      },
      { id: 'b', title: 'B', explanation: 'b', requires: ['a'], run: async () => ({ output: 2 }) },
    ]
    const run = new FlowRun('f', 'ais', 'e', defs, {}, () => undefined)
    const state = await run.runAll()
    expect(state.steps.map((s) => s.status)).toEqual(['skipped', 'done'])
    expect(state.steps[0]!.summary).toBe('skipped: no permission')
  })
})

describe('FlowRun state snapshots', () => {
  it("hands out copies of a step's lists and checks, and shares its output (read-only, possibly large) without copying it", async () => {
    const big = { transactions: Array.from({ length: 3 }, (_, i) => ({ TransactionId: `tx-${i}` })) }
    const defs: StepDefinition<object>[] = [
      {
        id: 'a',
        title: 'A',
        explanation: 'a',
        run: async (_c, scope) => {
          scope.exchange('ex-1')
          return { output: big, checks: [{ name: 'n', pass: true, expected: 'x', actual: 'x' }] }
        },
      },
    ]
    const events: FlowProgress[] = []
    const run = new FlowRun('f', 'ais', 'e', defs, {}, (p) => events.push(p))
    const state = await run.runAll()
    expect(state.steps[0]!.output).toBe(big)
    expect(events.at(-1)!.step.output).toBe(big)
    state.steps[0]!.exchangeIds.push('ex-mine')
    state.steps[0]!.checks[0]!.pass = false
    const again = run.state().steps[0]!
    expect(again.exchangeIds).toEqual(['ex-1'])
    expect(again.checks[0]!.pass).toBe(true)
    expect(run.output('a')).toBe(big)
  })
})

describe('FlowRun progress and problems', () => {
  it('emits the progress a step reports while it runs and clears it when the step ends', async () => {
    const events: FlowProgress[] = []
    const run = new FlowRun<Ctx>(
      'f-p',
      'ais',
      'env',
      [
        {
          id: 'pages',
          title: 'Pages',
          explanation: 'Reads pages.',
          async run(_ctx, scope) {
            scope.progress?.({ label: 'transactions of acc-1 (account 1 of 1)', page: 1, pages: 2, rows: 100 })
            scope.progress?.({ label: 'transactions of acc-1 (account 1 of 1)', page: 2, pages: 2, rows: 150 })
            return { output: {} }
          },
        },
      ],
      { calls: [] },
      (p) => events.push(p),
    )
    const done = await run.runStep('pages')
    expect(events.map((e) => e.step.progress?.rows)).toEqual([undefined, 100, 150, undefined])
    expect(events[2]!.step.progress).toEqual({
      label: 'transactions of acc-1 (account 1 of 1)',
      page: 2,
      pages: 2,
      rows: 150,
    })
    expect(events[2]!.step.status).toBe('running')
    expect(done.progress).toBeUndefined()
  })

  it('emits the running step again when it starts waiting for the PSU, with the flow state saying where to send them', async () => {
    const seen: Array<{ status: string; url: string | undefined }> = []
    let release!: () => void
    const run: FlowRun<Ctx> = new FlowRun<Ctx>(
      'f-a',
      'ais',
      'env',
      [
        {
          id: 'capture',
          title: 'PSU authorisation',
          explanation: 'Waits for the PSU.',
          async run(_ctx, scope) {
            scope.setAwaiting({
              stepId: 'capture',
              authorisationUrl: 'https://bank/auth',
              redirectUri: 'r',
              state: 's',
            })
            await new Promise<void>((r) => (release = r))
            scope.setAwaiting(undefined)
            return { output: {} }
          },
        },
      ],
      { calls: [] },
      (p) => seen.push({ status: p.step.status, url: run.state().awaiting?.authorisationUrl }),
    )
    const done = run.runStep('capture')
    expect(seen).toEqual([
      { status: 'running', url: undefined },
      { status: 'running', url: 'https://bank/auth' },
    ])
    release()
    await done
    expect(seen.at(-1)).toEqual({ status: 'done', url: undefined })
  })

  it("keeps every problem of an error (the bank's Errors[] with their paths) and its details", () => {
    const problems = [
      { code: 'U002', message: 'Amount has 3 decimal places', path: 'Data.Initiation.InstructedAmount.Amount' },
      {
        code: 'U021',
        message: 'Identification is not 14 digits',
        path: 'Data.Initiation.CreditorAccount.Identification',
      },
    ]
    const e = toTransportError(
      Object.assign(new Error('x'), {
        code: 'OB_FIELD_INVALID',
        what: 'w',
        cause: 'c',
        fix: 'f',
        details: { status: 400 },
        problems,
      }),
    )
    expect(e.problems).toEqual(problems)
    expect(e.problems).not.toBe(problems)
    expect(e.details).toEqual({ status: 400 })
  })
})
