/**
 * The web host's transport: `POST /api/call/<name>` with `{"input": …}` and the token header; events
 * as server-sent events on `GET /api/events`, read with fetch streaming (EventSource cannot send the
 * token header), reconnecting with a growing delay while anyone listens.
 */
import { decodeFramed, FRAMED_ANSWER, FramedAnswerError, isFramed } from '../../src-main/contract/framed-answer.ts'
import { WEB_HOST_PATHS, type ContractEvent } from '../../src-main/contract/transport.ts'
import { SseParser } from './sse-parser.ts'
import { isUiError, toOutcome, uiError, type Outcome, type Transport } from './transport.ts'

export interface WebTransportOptions {
  /** The per-launch token; undefined when the page was opened without it. */
  token: string | undefined
  /** Origin of the web host; '' means the page's own origin. */
  origin?: string
  fetch?: typeof fetch
  /** Reconnect delays of the event stream, in ms (the last repeats). */
  retryDelaysMs?: number[]
  setTimeout?: (fn: () => void, ms: number) => unknown
}

const NO_TOKEN = uiError(
  'WEB_HOST_NO_TOKEN',
  'The console page was opened without its access token.',
  'The web host hands the token in the address it prints (…/#token=…); this tab never received it.',
  'Open the exact URL that `ob-console serve` printed (or run `npm start` again).',
)

/** Creates the web host transport. */
export function webTransport(options: WebTransportOptions): Transport {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis)
  const origin = options.origin ?? ''
  const delays = options.retryDelaysMs ?? [500, 1000, 2000, 5000]
  const later = options.setTimeout ?? ((fn, ms) => setTimeout(fn, ms))
  const listeners = new Set<(event: ContractEvent) => void>()
  const reconnectListeners = new Set<() => void>()
  let connectedBefore = false
  let abort: AbortController | undefined
  let attempt = 0

  function call(name: string, input: unknown): Promise<Outcome<unknown>> {
    if (!options.token) return Promise.resolve({ ok: false, error: NO_TOKEN })
    return callWebHost(doFetch, `${origin}${WEB_HOST_PATHS.call}${name}`, options.token, name, input)
  }

  function dispatch(event: ContractEvent): void {
    for (const l of [...listeners]) {
      try {
        l(event)
      } catch (err) {
        console.error(`event listener for ${event.name} failed`, err)
      }
    }
  }

  async function connect(): Promise<void> {
    if (!options.token) return
    const controller = new AbortController()
    abort = controller
    try {
      const res = await doFetch(`${origin}${WEB_HOST_PATHS.events}`, {
        headers: { [WEB_HOST_PATHS.tokenHeader]: options.token, accept: 'text/event-stream' },
        signal: controller.signal,
      })
      if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`)
      attempt = 0
      if (connectedBefore) for (const l of [...reconnectListeners]) l()
      connectedBefore = true
      await readEventStream(res.body, dispatch)
    } catch (err) {
      if (controller.signal.aborted) return
      console.warn('console event stream interrupted:', (err as Error)?.message ?? err)
    }
    if (controller.signal.aborted || listeners.size === 0) return
    const delay = delays[Math.min(attempt, delays.length - 1)] ?? 1000
    attempt++
    later(() => {
      if (listeners.size > 0 && abort === controller) void connect()
    }, delay)
  }

  return {
    kind: 'web',
    call,
    onReconnect(listener) {
      reconnectListeners.add(listener)
      return () => reconnectListeners.delete(listener)
    },
    subscribe(listener) {
      listeners.add(listener)
      if (listeners.size === 1) void connect()
      return () => {
        listeners.delete(listener)
        if (listeners.size === 0) {
          abort?.abort()
          abort = undefined
        }
      }
    },
  }
}

/** Posts one call to the web host and reads its answer as a contract outcome. */
async function callWebHost(
  doFetch: typeof fetch,
  url: string,
  token: string,
  name: string,
  input: unknown,
): Promise<Outcome<unknown>> {
  let res: Response
  try {
    res = await doFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [WEB_HOST_PATHS.tokenHeader]: token },
      body: JSON.stringify({ input }),
    })
  } catch (err) {
    return {
      ok: false,
      error: uiError(
        'WEB_HOST_UNREACHABLE',
        `The call ${name} did not reach the console.`,
        `The console's local server did not answer (${(err as Error)?.message ?? err}); it may have stopped.`,
        'Start the console again (ob-console serve or npm start) and open the URL it prints.',
      ),
    }
  }
  return readCallAnswer(name, res)
}

/** The answer's body: plain JSON, or a framed answer (its large strings beside the JSON); throws if neither. */
export async function answerBody(res: Response): Promise<unknown> {
  if (!isFramed(res.headers.get('content-type'))) return res.json()
  const headBytes = Number(res.headers.get(FRAMED_ANSWER.headBytesHeader))
  return decodeFramed(new Uint8Array(await res.arrayBuffer()), headBytes)
}

/** A call's HTTP answer as an outcome: a contract result, or why it is not one. */
async function readCallAnswer(name: string, res: Response): Promise<Outcome<unknown>> {
  let body: unknown
  try {
    body = await answerBody(res)
  } catch (err) {
    return {
      ok: false,
      error: uiError(
        'WEB_HOST_BAD_ANSWER',
        `The call ${name} got HTTP ${res.status} without a readable body.`,
        err instanceof FramedAnswerError
          ? `Its framed answer is malformed: ${err.message}.`
          : 'Something other than the console answered on this address.',
        'Open the URL the console printed.',
      ),
    }
  }
  const b = body as { ok?: unknown; error?: unknown }
  if (!res.ok && !(b?.ok === false && isUiError(b.error))) {
    return {
      ok: false,
      error: uiError(
        'WEB_HOST_BAD_ANSWER',
        `The call ${name} got HTTP ${res.status}.`,
        'The answer is not a contract result.',
        'Reload the page; if it persists, restart the console.',
      ),
    }
  }
  return toOutcome(name, body)
}

/** Reads server-sent events until the stream ends, handing each JSON event on (others are skipped). */
async function readEventStream(
  body: NonNullable<Response['body']>,
  dispatch: (event: ContractEvent) => void,
): Promise<void> {
  const parser = new SseParser()
  const reader = body.pipeThrough(new TextDecoderStream()).getReader()
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return
    for (const msg of parser.push(value)) {
      let payload: unknown
      try {
        payload = JSON.parse(msg.data)
      } catch {
        continue
      }
      dispatch({ name: msg.event, payload })
    }
  }
}
