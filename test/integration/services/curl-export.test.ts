import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConsoleRuntime } from '../../../src-main/cli/console-runtime.ts'
import { freshRuntime, ok, registeredClient, startFlow, stepStatuses } from './journey-support.ts'

const run = promisify(execFile)

/** Runs an exported command (notes and all) with sh, the real /usr/bin/curl, and returns the HTTP status it got. */
async function statusOf(command: string, cwd: string): Promise<number> {
  // curl prints 000 and exits non-zero when no HTTP answer came (a TLS refusal): that is status 0 here.
  const out = await run('/bin/sh', ['-c', `${command} -s -o /dev/null -w '%{http_code}'`], {
    cwd,
    timeout: 20_000,
    env: { PATH: '/usr/bin:/bin' },
  }).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? '0' }))
  return Number(out.stdout)
}

describe('Copy as curl: the exported command runs with the real curl against the local sandbox over mutual TLS', () => {
  let rt: ConsoleRuntime
  let dir: string

  beforeAll(async () => {
    rt = await freshRuntime()
    dir = mkdtempSync(join(tmpdir(), 'ob-curl-'))
  })
  afterAll(async () => {
    await rt?.stop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('an AIS GET, the revealed token put in, gets the status the console got; masked, the bank answers 401', async () => {
    const h = rt.handlers
    const { environmentId, clientId, tppId } = await registeredClient(h, 'strict-headless')
    const flow = await startFlow(h, {
      kind: 'ais',
      environmentId,
      clientId,
      permissions: ['ReadAccountsDetail', 'ReadBalances'],
      psuPresent: true,
      capture: 'headless',
      authorisationUrlFrom: 'request-object',
    })
    const state = ok(await h['flows.runAll']({ flowId: flow.id }))
    expect(Object.values(stepStatuses(state)).filter((s) => s !== 'done' && s !== 'skipped')).toEqual([])
    const summary = ok(await h['exchanges.list']({ flowId: flow.id, pathContains: '/balances', status: '2xx' }))
      .items[0]!
    const id = summary.id

    // The identity's transport certificate and key as files, as a user saves them from the starter kit (test side only).
    const material = await rt.services.tpps.material(tppId)
    writeFileSync(join(dir, 'transport.pem'), material.transport!.certPem, { mode: 0o600 })
    writeFileSync(join(dir, 'transport.key'), material.transport!.keyPem, { mode: 0o600 })

    const masked = ok(await h['exchanges.export']({ id, format: 'curl' }))
    expect(masked).toMatch(/^# secrets are masked/m)
    expect(masked).toMatch(/^# mutual TLS: save the identity's transport certificate/m)
    expect(masked).toContain(`--cacert '${rt.sandbox()!.caBundlePath}'`)
    expect(masked).toMatch(/-X GET 'https:\/\/127\.0\.0\.1:\d+\/open-banking\/[^']*\/balances'/)
    expect(masked).not.toContain('PRIVATE KEY')
    expect(await statusOf(masked, dir)).toBe(401)

    const view = ok(await h['exchanges.get']({ id }))
    const bearer = view.secrets!.find((s) => s.name === 'authorization' && s.where === 'request headers')!
    const { value } = ok(await h['secrets.reveal']({ exchangeId: id, ref: bearer.ref }))
    const exported = ok(
      await h['exchanges.export']({
        id,
        format: 'curl',
        certPath: join(dir, 'transport.pem'),
        keyPath: join(dir, 'transport.key'),
      }),
    )
    // A Reveal never reaches an export: the user puts the value in, as the command's note says.
    expect(exported).not.toContain(value)
    expect(exported).toContain(bearer.shown)
    const revealed = exported.split(bearer.shown).join(value)
    for (const [name, v] of ok(await h['exchanges.get']({ id, reveal: [bearer.ref] })).request.headers)
      expect(revealed).toContain(`-H '${name}: ${v}'`)
    expect(revealed).not.toContain('PRIVATE KEY')
    expect(await statusOf(revealed, dir)).toBe(summary.status)
    expect(summary.status).toBe(200)

    // Without the identity's certificate, the sandbox refuses the same command at the TLS or API layer.
    const noCert = revealed.replace(/ --cert '[^']*' --key '[^']*'/, '')
    expect(noCert).not.toContain('--cert')
    expect(await statusOf(noCert, dir)).not.toBe(200)
  }, 120_000)
})
