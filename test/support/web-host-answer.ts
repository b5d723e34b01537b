/**
 * A web host call's answer read as the page reads it (`src-renderer/api/web-transport.ts`): plain JSON, or a
 * framed answer whose large strings travel beside the JSON (`contract/framed-answer.ts`). `text` is every byte
 * received, as UTF-8, for tests that search the answer for what must not be in it.
 */
import { decodeFramed, FRAMED_ANSWER } from '../../src-main/contract/framed-answer.ts'

export async function readWebHostAnswer<T>(res: Response): Promise<{ text: string; value: T; framed: boolean }> {
  const bytes = new Uint8Array(await res.arrayBuffer())
  const text = new TextDecoder().decode(bytes)
  if (!(res.headers.get('content-type') ?? '').startsWith(FRAMED_ANSWER.type))
    return { text, value: JSON.parse(text) as T, framed: false }
  const headBytes = Number(res.headers.get(FRAMED_ANSWER.headBytesHeader))
  return { text, value: decodeFramed(bytes, headBytes) as T, framed: true }
}
