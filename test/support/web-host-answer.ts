/**
 * A web host call's answer read as the page reads it (`answerBody` of `src-renderer/api/web-transport.ts`): plain
 * JSON, or a framed answer whose large strings travel beside the JSON (`contract/framed-answer.ts`). `text` is
 * every byte received, as UTF-8, for tests that search the answer for what must not be in it.
 */
import { isFramed } from '../../src-main/contract/framed-answer.ts'
import { answerBody } from '../../src-renderer/api/web-transport.ts'

export async function readWebHostAnswer<T>(res: Response): Promise<{ text: string; value: T; framed: boolean }> {
  const text = await res.clone().text()
  return { text, value: (await answerBody(res)) as T, framed: isFramed(res.headers.get('content-type')) }
}
