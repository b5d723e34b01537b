/** The conformance report's request to the local directory is marked as the console's own. */
import { describe, expect, it } from 'vitest'
import { SandboxReportService } from '../../../src-main/services/sandbox-report.ts'
import { localEnvironments, recordingEngine } from './support/recording-engine.ts'

describe('SandboxReportService', () => {
  it("reads the report through a request marked as the console's own (byConsole), 404 included", async () => {
    const report = {
      clientId: 'c1',
      keyedBy: 'client',
      ok: true,
      requests: 3,
      firstSeen: 'a',
      lastSeen: 'b',
      rules: [],
    }
    const { engine, sent } = recordingEngine({ status: 200, text: JSON.stringify(report), json: report })
    await expect(new SandboxReportService(localEnvironments(), engine).get('c1')).resolves.toMatchObject({ ok: true })
    const missing = recordingEngine({ status: 404, text: '{}', json: {} })
    await expect(new SandboxReportService(localEnvironments(), missing.engine).get('c1')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    for (const s of [...sent, ...missing.sent]) {
      expect(s.meta).toEqual({ byConsole: true })
      expect(s.request.url).toBe('https://127.0.0.1:4000/admin/conformance?client_id=c1')
    }
    expect(sent.length + missing.sent.length).toBe(2)
  })
  it('refuses an answer that is not a report, naming the first field that is not as expected', async () => {
    const report = { clientId: 'c1', keyedBy: 'client', ok: true, requests: 3, firstSeen: 'a', lastSeen: 'b' }
    const spoilt = { ...report, rules: [{ id: 'pagination', title: 't', checks: 'c', spec: 's', passed: 1 }] }
    const { engine } = recordingEngine({ status: 200, text: JSON.stringify(spoilt), json: spoilt })
    await expect(new SandboxReportService(localEnvironments(), engine).get('c1')).rejects.toMatchObject({
      code: 'HTTP_ERROR',
      cause: 'rules[0].enforcement is missing: is the local sandbox of another version?',
    })
  })
})
