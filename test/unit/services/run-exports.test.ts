import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { SecretStore } from '../../../src-main/certificates/secret-store.ts'
import {
  KEPT_RUNS,
  listRuns,
  loadRun,
  storeRun,
  writeRunExports,
  type RunExports,
} from '../../../src-main/services/run-exports.ts'

const dir = mkdtempSync(join(tmpdir(), 'run-exports-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function memorySecrets(): SecretStore & { map: Map<string, string> } {
  const map = new Map<string, string>()
  return {
    map,
    put: async (id, s) => void map.set(id, s),
    get: async (id) => map.get(id),
    delete: async (id) => map.delete(id),
    list: async () => [...map.keys()],
  }
}

const exportsOf = (n: number): RunExports => ({
  name: `run ${n}`,
  collection: { info: { name: `run ${n}`, description: '', schema: 's' }, item: [] },
  variables: [
    { key: 'base_url', value: 'https://127.0.0.1:8443', secret: false, description: 'base' },
    { key: 'access_token', value: `token-${n}-0123456789`, secret: true, description: 'token' },
  ],
  har: { log: { entries: [] } },
  curl: 'curl -sS https://127.0.0.1:8443/',
})

describe('run exports', () => {
  it('writes each file asked for with mode 0600, the environment with the secret values', () => {
    const files = { postman: join(dir, 'c.json'), postmanEnv: join(dir, 'e.json') }
    const lines = writeRunExports(exportsOf(1), files, '2026-01-01T00:00:00Z')
    expect(lines).toHaveLength(2)
    for (const f of Object.values(files)) expect(statSync(f).mode & 0o777).toBe(0o600)
    expect(readFileSync(files.postmanEnv, 'utf8')).toContain('token-1-0123456789')
    expect(readFileSync(files.postman, 'utf8')).not.toContain('token-1-0123456789')
  })

  it('keeps runs with their secret values in the secret store only, the last ones, and says which are kept', async () => {
    const data = join(dir, 'data')
    const secrets = memorySecrets()
    for (let n = 1; n <= KEPT_RUNS + 2; n++)
      await storeRun(data, secrets, `flow-${n}`, exportsOf(n), new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString())
    const runs = listRuns(data)
    expect(runs).toHaveLength(KEPT_RUNS)
    expect(runs[0]!.flowId).toBe('flow-3')
    expect(secrets.map.size).toBe(KEPT_RUNS)
    const file = readFileSync(join(data, 'runs', 'run-flow-22.json'), 'utf8')
    expect(file).not.toContain('token-22-0123456789')
    const last = await loadRun(data, secrets, 'last')
    expect(last.variables.find((v) => v.key === 'access_token')?.value).toBe('token-22-0123456789')
    expect((await loadRun(data, secrets, 'flow-5')).name).toBe('run 5')
    await expect(loadRun(data, secrets, 'flow-1')).rejects.toMatchObject({
      code: 'NOT_FOUND',
      cause: expect.stringContaining('flow-22'),
    })
    await expect(loadRun(join(dir, 'empty'), secrets, 'last')).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})
