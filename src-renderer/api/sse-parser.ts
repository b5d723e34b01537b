/** A streaming parser of server-sent events (the web host's `GET /api/events`), fed text chunks as they arrive. */
import { createParser } from 'eventsource-parser'

export interface SseMessage {
  /** The `event:` field; `message` when absent (per the SSE format). */
  event: string
  data: string
}

/**
 * Feeds chunks of an event stream and returns the complete messages so far. The parsing (frames split
 * across chunks, `\r\n` line ends, comments, multi-line `data:` fields) is eventsource-parser's.
 */
export class SseParser {
  #out: SseMessage[] = []
  #parser = createParser({ onEvent: (m) => this.#out.push({ event: m.event || 'message', data: m.data }) })

  push(chunk: string): SseMessage[] {
    this.#parser.feed(chunk)
    return this.#out.splice(0)
  }
}
