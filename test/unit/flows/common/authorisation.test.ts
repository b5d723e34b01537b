import { describe, expect, it } from 'vitest'
import {
  AUTHORISATION_URL_STEP,
  CAPTURE_STEP,
  captureStep,
  ID_TOKEN_STEP,
  idTokenStep,
} from '../../../../src-main/flows/common/authorisation.ts'
import { DISCOVERY_STEP } from '../../../../src-main/flows/common/discovery.ts'
import { FlowRun, type StepDefinition } from '../../../../src-main/flows/step-machine.ts'
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

describe('the ID token checks failing', () => {
  it('fail the step with its way on: the code not used, a new consent, the bank told if it fails again', async () => {
    const checks = [
      { name: 'signature', pass: true, expected: 'valid with the AS key', actual: 'valid' },
      {
        name: 'nonce',
        pass: false,
        expected: 'n-1',
        actual: 'n-2',
        hint: 'the ID token answers another authorisation request (or was replayed)',
      },
    ]
    const ctx = {
      client: { clientId: 'client-1' },
      signer: { checkIdToken: async () => checks },
    } as unknown as FlowContext
    const outputs = {
      [DISCOVERY_STEP]: { issuer: 'https://auth.example', jwks_uri: 'https://auth.example/jwks' },
      [AUTHORISATION_URL_STEP]: { nonce: 'n-1', consentId: 'c-1', state: 's-1' },
      [CAPTURE_STEP]: { idToken: 'a.b.c', code: 'code-1', state: 's-1' },
    }
    const steps = [
      ...[DISCOVERY_STEP, AUTHORISATION_URL_STEP, CAPTURE_STEP].map((id) => ({
        id,
        title: id,
        explanation: id,
        run: async () => ({ output: outputs[id] }),
      })),
      idTokenStep(),
    ] as StepDefinition<FlowContext>[]
    const run = new FlowRun('f-1', 'ais', 'env', steps, ctx, () => {})
    const state = await run.runAll()
    const step = state.steps.find((s) => s.id === ID_TOKEN_STEP)!
    expect(step.status).toBe('failed')
    expect(step.error).toMatchObject({
      code: 'FLOW_CHECK_FAILED',
      what: '1 check of "ID token checks" failed: nonce.',
      cause: 'nonce: expected n-1, got n-2',
      details: { wayOn: 'new-consent' },
    })
    expect(step.error!.fix).toBe(
      "Do not use this return's authorisation code: its ID token does not prove it is the bank's answer to this request " +
        '(nonce: the ID token answers another authorisation request (or was replayed)). Start a new consent, so the PSU ' +
        "authorises with a fresh state and nonce; if the bank's ID token fails the same check again, report it to the " +
        'bank with its x-fapi-interaction-id (the inspector holds the return and the JWKS it was checked against).',
    )
    expect(state.steps.find((s) => s.id === 'code-exchange')).toBeUndefined()
  })
})
