/**
 * A Reveal ends where it was asked: two browser sessions on one web host (each its own event stream), an AIS
 * journey run against the local sandbox. Session A reveals the Bearer token of the accounts call; session B
 * still gets it masked, every export (curl, HAR, the journey's HAR and Postman collection) made afterwards
 * is masked, and A's own next view without the ref (what its window asks once it masks again, leaves the
 * exchange or the reveal expires) is masked too. Nothing of the Reveal reaches either event stream.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ConsoleRuntime } from '../../../src-main/cli/console-runtime.ts'
import type { ConformanceDto, ExchangeDto } from '../../../src-main/contract/exchange.ts'
import type { ExchangePage } from '../../../src-main/contract/exchange-summaries.ts'
import type { FlowState } from '../../../src-main/contract/flows.ts'
import type { RunningWebHost } from '../../../src-main/web-host/web-host.ts'
import { headlessAis, type Ok, ok, registeredClient } from '../services/journey-support.ts'
import { openEventStream, startRuntimeHost, type RuntimeHost } from './support/runtime-host.ts'
import { readWebHostAnswer } from '../../support/web-host-answer.ts'

/** One browser session: its own event stream, its calls. */
interface Session {
  events(): string
  call<T>(name: string, input?: unknown): Promise<Ok<T>>
  ok<T>(name: string, input?: unknown): Promise<T>
  close(): void
}

describe('a Reveal ends where it was asked (two web host sessions)', () => {
  let rt: ConsoleRuntime
  let host: RunningWebHost
  let served: RuntimeHost | undefined
  const sessions: Session[] = []

  async function session(): Promise<Session> {
    let text = ''
    const sse = await openEventStream(host, (chunk) => (text += chunk))
    const call = async <T>(name: string, input?: unknown): Promise<Ok<T>> => {
      const res = await fetch(`${host.origin}/api/call/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-ob-console-token': host.token },
        body: JSON.stringify({ input }),
      })
      return (await readWebHostAnswer<Ok<T>>(res)).value
    }
    const s: Session = {
      events: () => text,
      call,
      ok: async <T>(name: string, input?: unknown) => ok(await call<T>(name, input)),
      close: () => sse.destroy(),
    }
    sessions.push(s)
    return s
  }

  beforeAll(async () => {
    served = await startRuntimeHost('reveal-scope-')
    ;({ rt, host } = served)
  }, 60_000)

  afterAll(async () => {
    for (const s of sessions) s.close()
    await served?.stop()
  })

  it("A's Reveal reaches A's answers only: B, the exports and A's next plain view stay masked", async () => {
    const a = await session()
    const b = await session()
    const { environmentId, clientId } = await registeredClient(rt.handlers, 'strict-headless')
    const flow = await a.ok<FlowState>('flows.start', headlessAis(environmentId, clientId))
    const done = await a.ok<FlowState>('flows.runAll', { flowId: flow.id })
    expect(done.steps.filter((s) => s.status === 'failed')).toEqual([])

    const page = await a.ok<ExchangePage>('exchanges.list', { flowId: flow.id, limit: 500 })
    const accounts = page.items.find((i) => i.label === 'accounts')!
    // The lens's verdict is part of the view: it comes in the pause after the flow's requests, asked for or not.
    await vi.waitFor(async () =>
      expect(await a.ok<ConformanceDto>('exchanges.conformance', { id: accounts.id })).toMatchObject({ checked: true }),
    )
    const masked = await a.ok<ExchangeDto>('exchanges.get', { id: accounts.id })
    const bearer = masked.secrets!.find((s) => s.name === 'authorization')!
    expect(bearer).toMatchObject({ revealed: false, revealable: true })

    // A reveals: the value comes back to A, and A's view asked with the ref shows it in place.
    const { value } = await a.ok<{ value: string }>('secrets.reveal', { exchangeId: accounts.id, ref: bearer.ref })
    expect(value.length).toBeGreaterThan(20)
    const shownToA = await a.ok<ExchangeDto>('exchanges.get', { id: accounts.id, reveal: [bearer.ref] })
    expect(shownToA.request.headers).toContainEqual(['authorization', `Bearer ${value}`])
    expect(shownToA.secrets!.find((s) => s.ref === bearer.ref)).toMatchObject({ revealed: true, shown: value })

    // B never pressed Reveal: masked, as before A's Reveal.
    const seenByB = await b.ok<ExchangeDto>('exchanges.get', { id: accounts.id })
    expect(seenByB).toEqual(masked)
    expect(JSON.stringify(seenByB)).not.toContain(value)
    expect(JSON.stringify(await b.ok('exchanges.list', { limit: 500 }))).not.toContain(value)

    // Exports made after the Reveal, by either session: masked.
    for (const s of [a, b]) {
      for (const format of ['curl', 'har']) {
        const text = await s.ok<string>('exchanges.export', { id: accounts.id, format })
        expect(text).toContain(bearer.shown)
        expect(text).not.toContain(value)
      }
      expect(await s.ok<string>('exchanges.har', { flowId: flow.id })).not.toContain(value)
      expect(await s.ok<string>('exchanges.postman', { flowId: flow.id, name: 'journey' })).not.toContain(value)
    }

    // A masks again (its window stops asking with the ref): A's next view is masked.
    expect(await a.ok<ExchangeDto>('exchanges.get', { id: accounts.id })).toEqual(masked)

    // The same in a flow: A reveals the code exchange's access token; the flow's state stays masked for both.
    const codeExchange = done.steps.find((s) => s.id === 'code-exchange')!
    const stepToken = codeExchange.secrets!.find((s) => s.name === 'accessToken')!
    expect((await a.ok<{ value: string }>('secrets.reveal', { flowId: flow.id, ref: stepToken.ref })).value).toBe(value)
    for (const s of [a, b]) expect(JSON.stringify(await s.ok('flows.get', { flowId: flow.id }))).not.toContain(value)

    // B runs the accounts step again: the new exchange carries the same token, masked for both, and no event
    // on either stream holds it.
    await b.ok<FlowState>('flows.runStep', { flowId: flow.id, stepId: 'accounts' })
    const again = (await b.ok<ExchangePage>('exchanges.list', { flowId: flow.id, limit: 500 })).items.filter(
      (i) => i.label === 'accounts',
    )
    expect(again).toHaveLength(2)
    for (const s of [a, b])
      for (const x of again) expect(JSON.stringify(await s.ok('exchanges.get', { id: x.id }))).not.toContain(value)
    for (let i = 0; i < 40 && !a.events().includes(again[1]!.id) && !a.events().includes(again[0]!.id); i++)
      await new Promise((r) => setTimeout(r, 25))
    for (const s of [a, b]) {
      expect(s.events()).toContain('flows.onDidProgress')
      expect(s.events()).not.toContain(value)
    }

    // A ref is a handle within one exchange: asked of another exchange, or badly, it is refused by name.
    expect(await a.call('exchanges.get', { id: again.at(-1)!.id, reveal: ['no-such-ref'] })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    })
    expect(await a.call('exchanges.get', { id: accounts.id, reveal: 'all' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', cause: '/reveal must be array.' },
    })
    expect(await a.call('exchanges.get', { id: accounts.id, reveal: [''] })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', what: expect.stringMatching(/not a list of secret refs/) },
    })
  }, 180_000)
})
