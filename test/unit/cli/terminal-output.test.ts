/**
 * Terminal safety of each printing path of the command line: the step log, errors, checks, the lens's
 * violations, `jwt decode` and `cert inspect`. Each writes through the terminal writers (captured here with
 * `redirectTerminal`) and never lets a control character from an outside value through.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { createSelfSignedCertificate } from '../../../src-main/certificates/generate.ts'
import { runCertCommand } from '../../../src-main/cli/cert-command.ts'
import { formatChecks, reportError, setJsonErrors } from '../../../src-main/cli/cli-support.ts'
import { formatViolations } from '../../../src-main/cli/conformance-report.ts'
import { stepLine } from '../../../src-main/cli/journey-run.ts'
import { runJwtCommand } from '../../../src-main/cli/jwt-command.ts'
import type { FlowProgress } from '../../../src-main/contract/flows.ts'
import { AppError } from '../../../src-main/core/app-error.ts'
import { redirectTerminal, writeOut } from '../../../src-main/plumbing/terminal-out.ts'

/** C0 but tab and newline, DEL and C1: what a terminal may act on. */
// eslint-disable-next-line no-control-regex -- the characters under test
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/
const HOSTILE = '\x1b[2J\x1b[31m\x1b]0;pwned\x07\u009b31m\u0000'
const SHOWN = '\\x1b[2J\\x1b[31m\\x1b]0;pwned\\x07\\x9b31m\\x00'

const WORK = mkdtempSync(join(tmpdir(), 'ob-terminal-output-'))
afterAll(() => rmSync(WORK, { recursive: true, force: true }))

let restore: (() => void) | undefined
afterEach(() => {
  restore?.()
  setJsonErrors(false)
})

/** Captures what the writers write while `fn` runs. */
async function captured(fn: () => unknown): Promise<{ out: string; err: string }> {
  const seen = { out: '', err: '' }
  restore = redirectTerminal({
    out: { write: (t: string) => (seen.out += t) },
    err: { write: (t: string) => (seen.err += t) },
  })
  await fn()
  restore()
  restore = undefined
  return seen
}

function expectSafe(text: string): void {
  expect(text).not.toMatch(RAW_CONTROL)
  expect(text).toContain(SHOWN)
}

describe('the step log', () => {
  it('shows a failed step whose summary and error quote the bank with every control escaped, on its own lines', async () => {
    const p = {
      flowId: 'f1',
      step: {
        id: 'accounts',
        title: 'Accounts',
        status: 'failed',
        ms: 12,
        summary: `2 accounts: ${HOSTILE}CACC`,
        exchangeIds: [],
        error: {
          code: 'OB_ERROR',
          what: `Refused: ${HOSTILE}`,
          cause: `ErrorCode ${HOSTILE}\nforged line`,
          fix: 'x',
          exchangeId: 'ex-7',
        },
      },
    } as unknown as FlowProgress
    const { out } = await captured(() => writeOut(stepLine(p)! + '\n'))
    expectSafe(out)
    // A newline from the bank is shown, never starts a line of its own.
    expect(out).toContain('\\x0aforged line')
    expect(out.split('\n')).toHaveLength(6)
    expect(out.split('\n')[0]).toBe(`✗ Accounts (12 ms): 2 accounts: ${SHOWN}CACC`)
    // The code a script branches on, and the exchange the inspector and the HAR name.
    expect(out.split('\n')[4]).toBe('    code:  OB_ERROR (exchange ex-7)')
  })
})

describe('errors', () => {
  it('reportError prints what, cause, fix and problems escaped; --json prints valid JSON with C1 escaped', async () => {
    const err = new AppError('OB_ERROR', {
      what: `The bank refused: ${HOSTILE}`,
      cause: `cause ${HOSTILE}`,
      fix: `fix ${HOSTILE}`,
      problems: [{ code: `${HOSTILE}UK.OBIE.Field.Invalid`, message: `msg ${HOSTILE}`, path: `Data.${HOSTILE}` }],
    })
    const text = await captured(() => reportError(err))
    expectSafe(text.err)
    expect(text.err.split('\n')[0]).toBe(`ob-console: The bank refused: ${SHOWN}`)
    setJsonErrors(true)
    const json = await captured(() => reportError(err))
    expect(json.out).not.toMatch(RAW_CONTROL)
    expect(json.out).toContain('\\u009b31m')
    expect((JSON.parse(json.out) as { error: { what: string } }).error.what).toBe(`The bank refused: ${HOSTILE}`)
  })

  it('formatChecks shows expected and got escaped', async () => {
    const { out } = await captured(() =>
      writeOut(formatChecks([{ name: 'initial status', pass: false, expected: 'RCVD', actual: `${HOSTILE}ACSP` }])),
    )
    expectSafe(out)
    expect(out).toBe(`  ✗ initial status: expected RCVD, got ${SHOWN}ACSP`)
  })
})

describe('the conformance report', () => {
  it('shows the path, message and found value of a violation escaped', async () => {
    const text = formatViolations('GET', `/accounts/${HOSTILE}`, {
      checked: true,
      operation: 'GET /accounts',
      violations: [
        {
          path: `Data.Account[0].AccountTypeCode`,
          rule: 'schema.enum',
          message: `must be one of CACC, CARD (${HOSTILE})`,
          value: `"${HOSTILE}CACC"`,
          source: 'OBReadAccount6',
        },
      ],
    } as never)
    const { out } = await captured(() => writeOut(text + '\n'))
    expectSafe(out)
    expect(out).toContain(`(found "${SHOWN}CACC")`)
  })
})

describe('jwt decode and cert inspect', () => {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url')
  const token = `${b64({ alg: 'none', typ: `JWT${HOSTILE}` })}.${b64({ sub: `psu${HOSTILE}`, note: '\u009b2J' })}.`

  it('jwt decode shows a hostile claim escaped, as text and as JSON', async () => {
    const text = await captured(() => runJwtCommand(['decode', token]))
    expect(text.out).not.toMatch(RAW_CONTROL)
    // JSON.stringify escapes C0 itself; the writer escapes what it leaves (C1).
    expect(text.out).toContain('psu\\u001b[2J')
    expect(text.out).toContain('\\x9b2J')
    const json = await captured(() => runJwtCommand(['decode', token, '--json']))
    expect(json.out).not.toMatch(RAW_CONTROL)
    expect((JSON.parse(json.out) as { claims: { sub: string } }).claims.sub).toBe(`psu${HOSTILE}`)
  })

  it('cert inspect shows a hostile subject escaped', async () => {
    const cert = await createSelfSignedCertificate({
      subject: [{ CN: [`evil${HOSTILE}`] }, { O: ['Org\u009b2J'] }],
      keyType: 'EC-P256',
    })
    const file = join(WORK, 'hostile.pem')
    writeFileSync(file, cert.certPem)
    const text = await captured(() => runCertCommand(['inspect', file]))
    expect(text.out + text.err).not.toMatch(RAW_CONTROL)
    expect(text.out).toMatch(/Certificate .*evil\\x1b\[2J/)
    const json = await captured(() => runCertCommand(['inspect', file, '--json']))
    expect(json.out).not.toMatch(RAW_CONTROL)
    expect(JSON.parse(json.out)).toHaveProperty('certificates')
  })
})
