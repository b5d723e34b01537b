import { readdirSync } from 'node:fs'
import { request } from 'undici'
import { describe, expect, it } from 'vitest'
import { freePort } from '../../support/free-ports.ts'
import { formAction, PsuBrowser, type Landing } from '../local-sandbox/auth/support/psu-browser.ts'
import { liveRunsOfEachTest, type LiveCli } from './support/live-cli.ts'

/**
 * `ob-console ais --env local` without --headless, as a developer runs it: the command prints the
 * authorisation URL; a PSU (a plain HTTP client with the sandbox's CA, no JavaScript, like the sandbox's
 * pages) follows it through the login and consent pages; the return reaches the command through the
 * loopback listener or a paste on standard input, and the journey reads the data.
 */

const live = liveRunsOfEachTest()

function page(l: Landing): Extract<Landing, { kind: 'page' }> {
  if (l.kind !== 'page') throw new Error(`expected a page, got a redirect to ${l.location}`)
  return l
}

/** Logs in as amelia and approves her two shareable accounts; returns where the bank sent the browser back. */
async function authorise(cli: LiveCli, authorisationUrl: string): Promise<string> {
  const browser = new PsuBrowser(cli.sandboxCa(), [new URL(authorisationUrl).origin])
  try {
    const login = page(await browser.get(authorisationUrl))
    expect(login.html).toContain('<h1>Log in to your bank</h1>')
    const consent = page(
      await browser.post(formAction(login, '/login'), { username: 'amelia', password: 'amelia-sandbox' }),
    )
    expect(consent.html).toContain('Share account information with')
    const back = await browser.post(formAction(consent, '/decision'), {
      decision: 'approve',
      accounts: ['acc-amelia-current', 'acc-amelia-card'],
    })
    if (back.kind !== 'redirect') throw new Error(`expected the redirect back, got HTTP ${back.status}:\n${back.html}`)
    return back.location
  } finally {
    await browser.close()
  }
}

describe('interactive login from the command line', { timeout: 300_000 }, () => {
  it('loopback: prints the URL, the PSU logs in in a browser, the listener takes the return, the data is read', async () => {
    const port = await freePort()
    const cli = live(['ais', '--env', 'local', '--no-open', '--loopback-port', String(port)])
    const [, url] = await cli.waitFor(/Open this URL in a browser and log in as the PSU[^\n]*\n {2}(https:\/\/\S+)\n/)
    const authorisationUrl = url!
    expect(new URL(authorisationUrl).searchParams.get('redirect_uri')).toBe(`http://127.0.0.1:${port}/callback`)
    await cli.waitFor(/Waiting for the bank to send the PSU back to http:\/\/127\.0\.0\.1:\d+\/callback/)
    expect(cli.stdout()).not.toContain('Opening it in the system browser')

    const returned = await authorise(cli, authorisationUrl)
    expect(returned).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/callback#`))
    // What the callback page's script does in the browser: the fragment never reaches a server by itself.
    const callback = await request(returned.split('#')[0]!)
    expect(callback.statusCode).toBe(200)
    expect(await callback.body.text()).toContain('Authorisation returned')
    const handed = await request(`http://127.0.0.1:${port}/callback/capture`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: `http://127.0.0.1:${port}` },
      body: returned,
    })
    expect(((await handed.body.json()) as { message: string }).message).toContain('has the authorisation code')

    const { code } = await cli.exited
    expect(code, cli.stderr().slice(-2000)).toBe(0)
    expect(cli.stdout()).toMatch(/✓ PSU authorisation \(\d+ ms\): code received \(loopback\)/)
    expect(cli.stdout()).toMatch(/acc-amelia-current \(CACC\): \d+ transactions in \d+ pages/)
    expect(readdirSync(cli.tmp)).toEqual([])
  })

  it('--paste --json: the URL first as a JSON line on stderr; an empty and a bad paste are refused and asked again; the good one finishes the run', async () => {
    const cli = live(['ais', '--env', 'local', '--no-open', '--paste', '--json'])
    const [line] = await cli.waitFor(/^\{"authorisationUrl":.*\}$/m, 'stderr')
    const { authorisationUrl } = JSON.parse(line) as { authorisationUrl: string }
    const before = cli.stderr().slice(0, cli.stderr().indexOf(line))
    expect(before).not.toContain(authorisationUrl)
    const ask =
      /Then paste here the whole address the browser ended on \(it starts with (https:\/\/127\.0\.0\.1:\d+\/callback)\)/g
    const [, redirectUri] = await cli.waitFor(ask, 'stderr')
    expect(new URL(authorisationUrl).searchParams.get('redirect_uri')).toBe(redirectUri)

    cli.child.stdin.write('\n')
    await cli.waitFor(/Nothing was pasted\.\n.*Then paste here/, 'stderr')
    cli.child.stdin.write('not a url at all\n')
    await cli.waitFor(/✗ [^\n]+\n {4}cause: [^\n]+\n {4}fix: {3}[^\n]+\nThen paste here/, 'stderr')

    const returned = await authorise(cli, authorisationUrl)
    expect(returned.startsWith(`${redirectUri}#`)).toBe(true)
    cli.child.stdin.write(`${returned}\n`)
    const { code } = await cli.exited
    expect(code, cli.stderr().slice(-2000)).toBe(0)
    const result = JSON.parse(cli.stdout().trim().split('\n').pop()!) as {
      accounts: Array<{ accountId: string; transactions: number }>
      steps: Array<{ name: string; status: string }>
    }
    expect(result.accounts.map((a) => a.accountId).sort()).toEqual(['acc-amelia-card', 'acc-amelia-current'])
    expect(result.steps.find((s) => s.name === 'capture')?.status).toBe('done')
    expect(cli.stderr()).toMatch(/✓ PSU authorisation \(\d+ ms\): code received \(pasted\)/)
    expect(readdirSync(cli.tmp)).toEqual([])
  })

  it('--paste: standard input closed before a paste ends the run with exit 1 and says why', async () => {
    const cli = live(['ais', '--env', 'local', '--no-open', '--paste'])
    await cli.waitFor(/Then paste here/)
    cli.child.stdin.end()
    const { code } = await cli.exited
    expect(code).toBe(1)
    expect(cli.stderr()).toContain(
      'ob-console: Standard input ended before the address the bank returned the PSU to was pasted.',
    )
    expect(cli.stderr()).toContain('leave out --paste')
    expect(readdirSync(cli.tmp)).toEqual([])
  })
})
