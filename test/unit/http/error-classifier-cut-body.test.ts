import { describe, expect, it } from 'vitest'
import { classifyRequestError, type FailureContext } from '../../../src-main/http/error-classifier.ts'

const ctx = (over: Partial<FailureContext> = {}): FailureContext => ({
  method: 'GET',
  url: 'https://bank.example:8443/open-banking/v4.0/aisp/accounts',
  environmentKind: 'bank-sandbox',
  clientCertificate: true,
  tlsVerification: 'on',
  freshConnection: false,
  timeouts: { connectMs: 10000, headersMs: 30000, bodyMs: 30000 },
  ...over,
})
const closed = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' })

describe('classifyRequestError: a body cut short', () => {
  it('says the answer started and was cut, when the status and headers had arrived', () => {
    const cut = classifyRequestError(closed, ctx({ responseStarted: true }))
    expect(cut.code).toBe('CONNECTION_RESET')
    expect(cut.cause).toMatch(/sent the status and headers, then closed the connection before the body was complete/)
    expect(cut.fix).toMatch(/read it before sending the request again/)
  })

  it('keeps "before sending a response" when nothing had arrived', () => {
    expect(classifyRequestError(closed, ctx()).cause).toMatch(/closed the connection before sending a response/)
    expect(classifyRequestError(closed, ctx({ responseStarted: false })).cause).toMatch(/before sending a response/)
  })
})
