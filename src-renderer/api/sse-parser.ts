/** A streaming parser of server-sent events (the web host's `GET /api/events`), fed text chunks as they arrive. */

export interface SseMessage {
  /** The `event:` field; `message` when absent (per the SSE format). */
  event: string
  data: string
}

/**
 * Feeds chunks of an event stream and returns the complete messages so far. Handles frames split across
 * chunks, `\r\n` line ends, comment lines (`: …`) and multi-line `data:` fields.
 */
export class SseParser {
  #buffer = ''
  #event = ''
  #data: string[] = []

  push(chunk: string): SseMessage[] {
    this.#buffer += chunk
    const out: SseMessage[] = []
    let newline: number
    while ((newline = this.#buffer.search(/\r\n|\n|\r/)) >= 0) {
      const line = this.#buffer.slice(0, newline)
      const sepLength = this.#buffer.startsWith('\r\n', newline) ? 2 : 1
      // A lone \r at the very end may be the first half of \r\n: wait for the next chunk.
      if (this.#buffer[newline] === '\r' && newline + 1 === this.#buffer.length) break
      this.#buffer = this.#buffer.slice(newline + sepLength)
      if (line === '') {
        if (this.#data.length) out.push({ event: this.#event || 'message', data: this.#data.join('\n') })
        this.#event = ''
        this.#data = []
        continue
      }
      if (line.startsWith(':')) continue
      const colon = line.indexOf(':')
      const field = colon < 0 ? line : line.slice(0, colon)
      let value = colon < 0 ? '' : line.slice(colon + 1)
      if (value.startsWith(' ')) value = value.slice(1)
      if (field === 'event') this.#event = value
      else if (field === 'data') this.#data.push(value)
    }
    return out
  }
}
