import { describe, expect, it } from 'vitest'
import { captureStep } from '../../../../src-main/flows/common/authorisation.ts'
import type { FlowContext, FlowRequest, FlowResponse } from '../../../../src-main/flows/flow-context.ts'
import { caught, fakeFlow } from '../flow-fixture.ts'

const LOGIN_PAGE =
  '<!DOCTYPE html>\n<html><head><title>Sign in to Example Bank</title></head><body><form>…</form></body></html>'

/** A bank whose authorisation redirects to its login page, which answers `status` with HTML. */
function headlessAt(status: number) {
  const { scope } = fakeFlow(() => ({ status: 200 }), {
    'authorisation-url': {
      authorisationUrl: 'https://auth.example/authorize?request=x',
      redirectUri: 'https://tpp.example/cb',
      state: 's',
      nonce: 'n',
    },
  })
  const answers: FlowResponse[] = [
    { exchangeId: 'x1', status: 302, headers: { location: '/login?uid=1' }, text: '' },
    { exchangeId: 'x2', status, headers: { 'content-type': 'text/html; charset=utf-8' }, text: LOGIN_PAGE },
  ]
  const sent: FlowRequest[] = []
  const ctx = {
    capture: { mode: 'headless' },
    http: { send: async (req: FlowRequest) => (sent.push(req), answers[sent.length - 1]!) },
  } as unknown as FlowContext
  return { ctx, scope, sent }
}

describe('the headless capture meeting a login page', () => {
  for (const status of [200, 401]) {
    it(`names the page it stopped at (HTTP ${status}), not its markup`, async () => {
      const { ctx, scope, sent } = headlessAt(status)
      const err = await caught(() => captureStep().run(ctx, scope))
      expect(sent.map((r) => r.url)).toEqual([
        'https://auth.example/authorize?request=x',
        'https://auth.example/login?uid=1',
      ])
      expect(err.code).toBe('OAUTH_ERROR')
      expect(err.what).toBe(`The headless authorisation stopped at HTTP ${status} on /login.`)
      expect(err.cause).toContain('an HTML page titled "Sign in to Example Bank"')
      expect(`${err.what} ${err.cause} ${err.fix}`).not.toMatch(/<!DOCTYPE|<html|<title/i)
    })
  }
})
