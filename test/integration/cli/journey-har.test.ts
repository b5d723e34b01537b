/**
 * `ob-console onboard|ais|pis --env local --headless --json --har FILE`, spawned as a user runs it: the HAR
 * it writes, its JSON line and its step log carry no private key material in any encoding, and every
 * token, code, assertion and credential in them is masked.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from './support/run-cli.ts'
import { harSchemaErrors } from '../../support/har-schema.ts'
import { KEY_MARKERS, maskedByName } from '../web-host/support/secret-scan.ts'

const dir = mkdtempSync(join(tmpdir(), 'journey-har-'))

const run = (args: string[]) => runCli(args, { timeoutMs: 150_000 })

interface Har {
  log: {
    entries: Array<{
      comment?: string
      request: { headers: Array<{ name: string; value: string }>; url: string }
      response: { content: { text?: string } }
    }>
  }
}

function noKeys(text: string, where: string): void {
  for (const marker of KEY_MARKERS) expect(marker.test(text), `${marker} in ${where}`).toBe(false)
}

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('ob-console journeys with --har', () => {
  // onboard registers a client_secret_basic client: the registration response carries its secret.
  it.each([
    ['onboard', 1, ['--auth-method', 'client_secret_basic']],
    ['ais', 40, []],
    ['pis', 15, []],
  ] as const)(
    '%s writes a HAR with no private key and every token and code masked',
    async (kind, minMasked, extra) => {
      const file = join(dir, `${kind}.har`)
      const { code, stdout, stderr } = await run([
        kind,
        '--env',
        'local',
        '--headless',
        '--json',
        '--har',
        file,
        ...extra,
      ])
      expect(code, stderr.slice(-2000)).toBe(0)
      const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as { clientId: string }
      expect(result.clientId).toBeTruthy()
      expect(stderr).toContain(`HAR written to ${file}`)
      expect(statSync(file).mode & 0o777).toBe(0o600)
      const text = readFileSync(file, 'utf8')
      const har = JSON.parse(text) as Har
      expect(har.log.entries.length).toBeGreaterThan(kind === 'onboard' ? 1 : 10)
      expect(await harSchemaErrors(har)).toEqual([])
      // The starter kit is in the run, its keys removed.
      const kit = har.log.entries.find((e) => e.comment?.includes('starter kit'))!
      expect(JSON.parse(kit.response.content.text!)).toMatchObject({
        signingKeyPem: '[private key removed]',
        transportKeyPem: '[private key removed]',
      })
      for (const [where, t] of [
        ['HAR', text],
        ['stdout', stdout],
        ['stderr', stderr],
      ] as const)
        noKeys(t, `${kind} ${where}`)
      // Every secret-named value and every Bearer/Basic credential is masked (none was revealed in a CLI run).
      const seen =
        maskedByName(text, `${kind} HAR`) +
        maskedByName(stdout, `${kind} stdout`) +
        maskedByName(stderr, `${kind} stderr`)
      expect(seen).toBeGreaterThanOrEqual(minMasked)
      for (const e of har.log.entries) {
        const auth = e.request.headers.find((h) => h.name.toLowerCase() === 'authorization')?.value
        if (auth) expect(auth).toMatch(/^(Bearer|Basic) (?:.{8}….{8}|•+)$/)
      }
    },
    200_000,
  )
})
