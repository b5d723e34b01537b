import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Agent as IndexAgent } from 'undici'
import { Agent, buildConnector } from '../../../src-main/http/undici-parts.ts'

const REPO = resolve(import.meta.dirname, '../../..')

describe('undici-parts', () => {
  it("gives undici's own Agent and connector, with the request API the index adds", () => {
    expect(Agent).toBe(IndexAgent)
    expect(typeof buildConnector).toBe('function')
    const agent = new Agent()
    for (const method of ['request', 'stream', 'pipeline', 'upgrade', 'connect', 'dispatch'] as const)
      expect(typeof agent[method]).toBe('function')
    void agent.close()
  })

  it("does not load undici's index (fetch, WebSocket, caches, mocks)", () => {
    const script = [
      "await import('./src-main/http/undici-parts.ts')",
      "const { createRequire } = await import('node:module')",
      'const cache = createRequire(import.meta.url).cache',
      "const loaded = Object.keys(cache).filter((k) => k.includes('/node_modules/undici/'))",
      "console.log(JSON.stringify({ index: loaded.some((k) => k.endsWith('/undici/index.js')), fetch: loaded.some((k) => k.includes('/lib/web/')), count: loaded.length }))",
    ].join('\n')
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: REPO,
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect(run.status, run.stderr).toBe(0)
    const seen = JSON.parse(run.stdout) as { index: boolean; fetch: boolean; count: number }
    expect(seen).toMatchObject({ index: false, fetch: false })
    expect(seen.count).toBeGreaterThan(10)
  })
})
