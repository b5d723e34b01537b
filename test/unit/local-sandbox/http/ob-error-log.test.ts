import { describe, expect, it } from 'vitest'
import { obErrorMiddleware } from '../../../../src-main/local-sandbox/http/ob-error.ts'
import { withConsoleRoutedTo } from '../../../../src-main/local-sandbox/auth/provider/load-provider.ts'
import { redirectTerminal } from '../../../../src-main/plumbing/terminal-out.ts'

// eslint-disable-next-line no-control-regex -- asserting their absence
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/

/** What the sandbox's log writes on stderr while `fn` runs. */
async function stderrOf(fn: () => Promise<unknown>): Promise<string> {
  let err = ''
  const restore = redirectTerminal({ out: { write: () => true }, err: { write: (t: string) => (err += t) } })
  try {
    await fn()
  } finally {
    restore()
  }
  return err
}

describe('the local sandbox log on a terminal', () => {
  it('an unexpected error is logged on stderr with its control characters escaped', async () => {
    const headers: Record<string, string> = {}
    const ctx = {
      method: 'GET',
      path: '/open-banking/v4.0/aisp/accounts',
      response: { get: () => '' },
      set: (k: string, v: string) => (headers[k] = v),
      status: 200,
      body: undefined as unknown,
    }
    const err = await stderrOf(() =>
      obErrorMiddleware()(ctx as never, async () => {
        throw new Error('boom \x1b[2J\x1b[31m\u009b31m\u0000')
      }),
    )
    expect(ctx.status).toBe(500)
    expect(err).toContain('local sandbox: unexpected error on GET /open-banking/v4.0/aisp/accounts: Error: boom')
    expect(err).toContain('boom \\x1b[2J\\x1b[31m\\x9b31m\\x00')
    expect(err).not.toMatch(RAW_CONTROL)
  })

  it("oidc-provider's console notices, routed to the log, reach the terminal escaped", async () => {
    const { writeErrLine } = await import('../../../../src-main/plumbing/terminal-out.ts')
    const err = await stderrOf(() =>
      withConsoleRoutedTo(writeErrLine, async () => console.warn('notice \x1b]52;c;aGk=\x07 \u009b2J')),
    )
    expect(err).toBe('local sandbox (oidc-provider): notice \\x1b]52;c;aGk=\\x07 \\x9b2J\n')
  })
})
