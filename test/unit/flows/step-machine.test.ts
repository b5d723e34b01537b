import { describe, expect, it, vi } from 'vitest'
import type { FlowProgress } from '../../../src-main/contract/flows.ts'
import { AppError } from '../../../src-main/core/app-error.ts'
import { toStepError } from '../../../src-main/flows/step-error.ts'
import { PROGRESS_INTERVAL_MS } from '../../../src-main/flows/progress-pacer.ts'
import { FlowRun, stepKey, type StepDefinition } from '../../../src-main/flows/step-machine.ts'

type Ctx = { calls: string[]; failToken?: boolean }

const steps: StepDefinition<Ctx>[] = [
  {
    id: stepKey('token'),
    title: 'Client-credentials token',
    explanation: 'Gets a token.',
    async run(ctx, scope) {
      ctx.calls.push('token')
      scope.exchange('ex-1')
      if (ctx.failToken) throw new AppError('TLS_CLIENT_CERT_REFUSED', { what: 'w', cause: 'c', fix: 'f' })
      return { output: { accessToken: 'at' }, summary: 'token' }
    },
  },
  {
    id: stepKey('consent'),
    title: 'Account access consent',
    explanation: 'Creates a consent.',
    requires: [stepKey('token')],
    async run(ctx, scope) {
      ctx.calls.push('consent:' + scope.output(stepKey<{ accessToken: string }>('token')).accessToken)
      return {
        output: { consentId: 'aac-1' },
        checks: [{ name: 'Status', pass: true, expected: 'AWAU', actual: 'AWAU' }],
      }
    },
  },
  {
    id: stepKey('check'),
    title: 'Checks',
    explanation: 'Checks.',
    requires: [stepKey('consent')],
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
    // A code about an exchange that does not name one: the last exchange the step made.
    expect(first.error).toEqual({
      code: 'TLS_CLIENT_CERT_REFUSED',
      what: 'w',
      cause: 'c',
      fix: 'f',
      step: 'token',
      exchangeId: 'ex-1',
    })
    ctx.failToken = false
    const second = await run.runStep('token')
    expect(second.status).toBe('done')
    expect(second.error).toBeUndefined()
    expect(ctx.calls).toEqual(['token', 'token'])
  })

  it('turns a plain error into INTERNAL naming the step, its message the cause, and no exchange', () => {
    const e = toStepError(new Error('x is undefined'), { id: stepKey('token'), title: 'Token' }, ['ex-1'])
    expect(e).toMatchObject({ code: 'INTERNAL', what: '"Token" failed.', step: 'token' })
    expect(e.cause).toContain('x is undefined')
    expect(e.exchangeId).toBeUndefined()
  })
})

describe('FlowRun skipped steps', () => {
  it('marks a step that does not apply as skipped and goes on to the next', async () => {
    const defs: StepDefinition<object>[] = [
      {
        id: stepKey('a'),
        title: 'A',
        explanation: 'a',
        run: async () => ({ output: 1, skipped: true, summary: 'skipped: no permission' }),
      },
      { id: stepKey('b'), title: 'B', explanation: 'b', requires: [stepKey('a')], run: async () => ({ output: 2 }) },
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
        id: stepKey('a'),
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
    expect(run.output(stepKey('a'))).toBe(big)
  })
})

describe('FlowRun creation time', () => {
  it('is the time the flow was made, whenever its state is read (the flows list sorts by it)', () => {
    let t = Date.parse('2026-11-27T09:00:00Z')
    const run = new FlowRun(
      'f',
      'ais',
      'e',
      [],
      {},
      () => undefined,
      () => new Date(t),
    )
    t += 3_600_000
    expect(run.state().createdAt).toBe('2026-11-27T09:00:00.000Z')
    t += 3_600_000
    expect(run.state().createdAt).toBe('2026-11-27T09:00:00.000Z')
  })
})

/** A flow of one step, `pages`, that runs `run`; the events it emits go to `events`. */
function pagesFlow(id: string, run: StepDefinition<Ctx, object>['run'], events: FlowProgress[]): FlowRun<Ctx> {
  const step: StepDefinition<Ctx, object> = { id: stepKey('pages'), title: 'Pages', explanation: 'Reads pages.', run }
  return new FlowRun<Ctx>(id, 'ais', 'env', [step], { calls: [] }, (p) => events.push(p))
}

describe('FlowRun progress and problems', () => {
  it('emits the progress a step reports while it runs and clears it when the step ends', async () => {
    const events: FlowProgress[] = []
    const run = pagesFlow(
      'f-p',
      async (_ctx, scope) => {
        scope.progress?.({ label: 'transactions of acc-1 (account 1 of 1)', page: 1, pages: 2, rows: 100 })
        scope.progress?.({ label: 'transactions of acc-1 (account 1 of 1)', page: 2, pages: 2, rows: 150 })
        return { output: {} }
      },
      events,
    )
    const done = await run.runStep('pages')
    // The second report came within the pacing interval: the step's end superseded it.
    expect(events.map((e) => e.step.progress?.rows)).toEqual([undefined, 100, undefined])
    expect(events[1]!.step.progress).toEqual({
      label: 'transactions of acc-1 (account 1 of 1)',
      page: 1,
      pages: 2,
      rows: 100,
    })
    expect(events[1]!.step.status).toBe('running')
    expect(done.progress).toBeUndefined()
  })

  it('paces the progress of a slow step: the newest report once the interval has passed', async () => {
    vi.useFakeTimers()
    try {
      const events: FlowProgress[] = []
      let finish!: () => void
      const run = pagesFlow(
        'f-slow',
        async (_ctx, scope) => {
          for (const page of [1, 2, 3]) scope.progress?.({ label: 'transactions', page, pages: 4, rows: page })
          await vi.advanceTimersByTimeAsync(PROGRESS_INTERVAL_MS)
          scope.progress?.({ label: 'transactions', page: 4, pages: 4, rows: 4 })
          await new Promise<void>((resolve) => (finish = resolve))
          return { output: {} }
        },
        events,
      )
      const running = run.runStep('pages')
      await vi.advanceTimersByTimeAsync(0)
      // Page 1 at once; pages 2 and 3 as one event (the newest) when the interval passed; page 4 waits.
      expect(events.map((e) => e.step.progress?.page)).toEqual([undefined, 1, 3])
      await vi.advanceTimersByTimeAsync(PROGRESS_INTERVAL_MS)
      expect(events.map((e) => e.step.progress?.page)).toEqual([undefined, 1, 3, 4])
      finish()
      await running
      expect(events.at(-1)!.step.status).toBe('done')
      expect(events.at(-1)!.step.progress).toBeUndefined()
    } finally {
      vi.useRealTimers()
    }
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
          id: stepKey('capture'),
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
    const e = toStepError(
      new AppError('OB_ERROR', { what: 'w', cause: 'c', fix: 'f', details: { status: 400 }, problems }),
      { id: stepKey('payment'), title: 'Payment' },
      [],
    )
    expect(e.problems).toEqual(problems)
    expect(e.problems).not.toBe(problems)
    expect(e.details).toEqual({ status: 400 })
  })
})

describe('FlowRun: a failed step records its code, its id and the exchange that failed', () => {
  const one = (run: StepDefinition<object>['run']) =>
    new FlowRun('f1', 'pis', 'env', [{ id: stepKey('payment'), title: 'Payment', explanation: 'p', run }], {}, () => {})

  it('the exchange the error names, over the last the step made', async () => {
    const run = one(async (_ctx, scope) => {
      scope.exchange('ex-1')
      scope.exchange('ex-2')
      throw new AppError('OB_ERROR', { what: 'w', cause: 'c', fix: 'f', details: { status: 400, exchangeId: 'ex-1' } })
    })
    const s = await run.runStep('payment')
    expect(s.error).toEqual({
      code: 'OB_ERROR',
      what: 'w',
      cause: 'c',
      fix: 'f',
      step: 'payment',
      exchangeId: 'ex-1',
      details: { status: 400, exchangeId: 'ex-1' },
    })
    // The state handed out is a copy: changing it changes nothing in the run.
    s.error!.exchangeId = 'changed'
    expect(run.state().steps[0]!.error?.exchangeId).toBe('ex-1')
  })

  it("a failed check is about the step's last exchange", async () => {
    const run = one(async (_ctx, scope) => {
      scope.exchange('ex-1')
      return { output: 1, checks: [{ name: 'x-jws-signature', pass: false, expected: 'valid', actual: 'absent' }] }
    })
    expect((await run.runStep('payment')).error).toMatchObject({
      code: 'FLOW_CHECK_FAILED',
      step: 'payment',
      exchangeId: 'ex-1',
    })
  })

  it('a failure that is not about an exchange names none, even when the step made one', async () => {
    const run = one(async (_ctx, scope) => {
      scope.exchange('ex-1')
      throw new AppError('KEY_INVALID', { what: 'w', cause: 'c', fix: 'f' })
    })
    const s = await run.runStep('payment')
    expect(s.error).toMatchObject({ code: 'KEY_INVALID', step: 'payment' })
    expect(s.error).not.toHaveProperty('exchangeId')
  })

  it('an error of the system or of jose gets its code, not INTERNAL', async () => {
    const refused = one(async (_ctx, scope) => {
      scope.exchange('ex-1')
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' })
    })
    expect((await refused.runStep('payment')).error).toMatchObject({
      code: 'CONNECTION_REFUSED',
      what: '"Payment" failed.',
      step: 'payment',
      exchangeId: 'ex-1',
    })
    const badSignature = one(async () => {
      throw Object.assign(new Error('signature verification failed'), { code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' })
    })
    const s = await badSignature.runStep('payment')
    expect(s.error).toMatchObject({ code: 'SIGNATURE_INVALID', step: 'payment' })
    expect(s.error?.cause).toContain('signature verification failed')
  })

  it('a step that cannot run yet, and an unknown step, are coded', async () => {
    const run = new FlowRun(
      'f1',
      'ais',
      'env',
      [
        { id: stepKey('a'), title: 'A', explanation: 'a', run: async () => ({ output: 1 }) },
        { id: stepKey('b'), title: 'B', explanation: 'b', requires: [stepKey('a')], run: async () => ({ output: 2 }) },
      ],
      {},
      () => {},
    )
    expect((await run.runStep('b')).error).toMatchObject({ code: 'FLOW_STEP_NOT_READY', step: 'b' })
    await expect(run.runStep('c')).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect(() => run.output(stepKey('a'))).toThrow(expect.objectContaining({ code: 'FLOW_STEP_NOT_READY' }))
  })
})

describe('step keys: a step output read with the type its step declared', () => {
  it('reads an output through its key, typed; a plain id is no key', async () => {
    const TOKEN = stepKey<{ accessToken: string }>('token')
    const def: StepDefinition<object, { accessToken: string }> = {
      id: TOKEN,
      title: 'Token',
      explanation: 't',
      run: async () => ({ output: { accessToken: 'at-1' } }),
    }
    const run = new FlowRun('f', 'ais', 'env', [def], {}, () => {})
    await run.runStep(TOKEN)
    const token: string = run.output(TOKEN).accessToken
    expect(token).toBe('at-1')
    // @ts-expect-error: an id string carries no output type
    expect(run.output('token')).toEqual({ accessToken: 'at-1' })
    // @ts-expect-error: a step must output what its key says
    const wrong: StepDefinition<object, { accessToken: string }> = { ...def, run: async () => ({ output: 42 }) }
    expect(wrong.id).toBe('token')
  })
})
