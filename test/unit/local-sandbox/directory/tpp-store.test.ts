import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { TPP_RECHECK_MS, TppStore } from '../../../../src-main/local-sandbox/directory/tpp-store.ts'
import { FileBankDocuments } from '../../../../src-main/local-sandbox/store/bank-documents.ts'
import type { SoftwareStatementRecord } from '../../../../src-main/local-sandbox/directory/types.ts'

const record = (
  softwareId: string,
  orgStatus: SoftwareStatementRecord['orgStatus'] = 'Active',
): SoftwareStatementRecord => ({
  orgId: '0015800001TESTORG',
  orgName: 'Test TPP',
  orgStatus,
  softwareId,
  clientName: 'client',
  roles: ['AISP'],
  redirectUris: ['https://tpp.example/cb'],
  jwksEndpoint: `https://127.0.0.1/organisation/0015800001TESTORG/software/${softwareId}/jwks`,
  jwks: { keys: [] },
  transportCertificateThumbprints: [],
  createdAt: '2026-01-01T00:00:00.000Z',
})

describe('TppStore: records in the bank documents shared by processes, with a short recheck interval', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ob-tpp-store-'))
  const open = () => new TppStore(new FileBankDocuments(dir))
  afterEach(() => vi.restoreAllMocks())
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('sees at once a TPP written by another process (another store on the same directory)', async () => {
    const mine = open()
    const other = open()
    expect(await mine.get('newSoftware1')).toBeUndefined()
    await other.put(record('newSoftware1'))
    expect((await mine.get('newSoftware1'))?.softwareId).toBe('newSoftware1')
  })

  it("sees its own changes at once, and another process's change to a record it has read within TPP_RECHECK_MS", async () => {
    const mine = open()
    const other = open()
    await mine.put(record('changed1'))
    expect((await mine.get('changed1'))?.orgStatus).toBe('Active')
    await mine.put(record('changed1', 'Withdrawn'))
    expect((await mine.get('changed1'))?.orgStatus).toBe('Withdrawn')

    let now = performance.now()
    vi.spyOn(performance, 'now').mockImplementation(() => now)
    expect((await mine.get('changed1'))?.orgStatus).toBe('Withdrawn')
    await other.put(record('changed1', 'Revoked'))
    // Within the recheck interval the record read a moment ago is used as it was...
    now += TPP_RECHECK_MS / 2
    expect((await mine.get('changed1'))?.orgStatus).toBe('Withdrawn')
    // ...and once it has passed, the record is read again.
    now += TPP_RECHECK_MS
    expect((await mine.get('changed1'))?.orgStatus).toBe('Revoked')
  })

  it('forgets a record whose file was removed once the interval has passed', async () => {
    const mine = open()
    await mine.put(record('removed1'))
    let now = performance.now()
    vi.spyOn(performance, 'now').mockImplementation(() => now)
    expect(await mine.get('removed1')).toBeDefined()
    rmSync(join(dir, 'directory', 'tpps', 'removed1.json'))
    now += TPP_RECHECK_MS + 1
    expect(await mine.get('removed1')).toBeUndefined()
  })
})
