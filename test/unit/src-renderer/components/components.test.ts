// @vitest-environment happy-dom
import { fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup } from '@testing-library/react'
import { ChecksList } from '../../../../src-renderer/components/checks-list.tsx'
import { ErrorPanel } from '../../../../src-renderer/components/error-panel.tsx'
import { VirtualList, visibleRange } from '../../../../src-renderer/components/virtual-list.tsx'
import { ErrorBoundary } from '../../../../src-renderer/app/error-boundary.tsx'
import { el, h } from '../support/render.ts'
import type { CertificateInspectionDto } from '../../../../src-main/contract/certificates.ts'

afterEach(cleanup)

describe('ChecksList', () => {
  const checks = [
    { name: 'alg', pass: true, expected: 'PS256', actual: 'PS256' },
    { name: 'aud', pass: false, expected: 'https://auth', actual: 'https://other', hint: 'aud is {auth_url}' },
  ]

  it('shows every check with expected and actual, and the hint of a failure', () => {
    render(el(ChecksList, { checks, label: 'Claim checks' }))
    const group = screen.getByRole('group', { name: 'Claim checks' })
    expect(group.textContent).toContain('1 of 2 pass, 1 fail')
    const aud = group.querySelector('[data-check="aud"]')!
    expect(aud.getAttribute('data-pass')).toBe('false')
    expect(aud.textContent).toContain('https://other')
    expect(aud.textContent).toContain('aud is {auth_url}')
    expect(aud.textContent).toContain('fails')
  })

  it('marks a passing check amber only when it says what needs attention', () => {
    render(
      el(ChecksList, {
        checks: [
          { name: 'quiet', pass: true, expected: 'x', actual: 'x', severity: 'warning' as const },
          {
            name: 'soon',
            pass: true,
            expected: 'x',
            actual: 'x',
            severity: 'warning' as const,
            hint: 'expires in 12 days',
          },
        ],
        label: 'Marks',
      }),
    )
    const group = screen.getByRole('group', { name: 'Marks' })
    expect(group.querySelector('[data-check="quiet"]')!.className).toBe('check check-pass')
    expect(group.querySelector('[data-check="soon"]')!.className).toBe('check check-warning')
  })

  it('compact: closed while everything passes, open as soon as a check fails', () => {
    const { rerender } = render(el(ChecksList, { checks: [checks[0]!], compact: true, label: 'Step checks' }))
    expect((screen.getByRole('group', { name: 'Step checks' }) as HTMLDetailsElement).open).toBe(false)
    rerender(el(ChecksList, { checks, compact: true, label: 'Step checks' }))
    expect((screen.getByRole('group', { name: 'Step checks' }) as HTMLDetailsElement).open).toBe(true)
  })
})

describe('ErrorPanel', () => {
  it('says what failed, the cause and the fix, lists the problems, and is announced', () => {
    const onDismiss = vi.fn()
    render(
      el(ErrorPanel, {
        title: 'Registration failed',
        onDismiss,
        error: {
          code: 'DCR_ERROR',
          what: 'The bank refused the registration.',
          cause: 'invalid_redirect_uri',
          fix: 'Register a URI of the SSA.',
          details: { status: 400 },
          problems: [{ code: 'invalid_redirect_uri', message: 'not in the SSA', path: 'redirect_uris' }],
        },
      }),
    )
    const alert = screen.getByRole('alert')
    expect(alert.textContent).toContain('Registration failed: The bank refused the registration.')
    expect(alert.textContent).toContain('Causeinvalid_redirect_uri'.replace('Cause', 'Cause '))
    expect(alert.textContent).toContain('Register a URI of the SSA.')
    expect(alert.textContent).toContain('redirect_uris')
    expect(alert.textContent).toContain('status: 400')
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss error' }))
    expect(onDismiss).toHaveBeenCalled()
  })

  it('draws nothing without an error', () => {
    const { container } = render(el(ErrorPanel, { error: undefined }))
    expect(container.innerHTML).toBe('')
  })
})

describe('VirtualList', () => {
  it('computes the rows in view plus overscan', () => {
    expect(visibleRange(0, 460, 46, 10_000)).toEqual({ start: 0, end: 16 })
    expect(visibleRange(46 * 5000, 460, 46, 10_000)).toEqual({ start: 4994, end: 5016 })
    expect(visibleRange(46 * 9999, 460, 46, 10_000).end).toBe(10_000)
  })

  it('puts only the visible rows of 10 000 in the DOM, and moves the selection with the arrow keys', () => {
    const items = Array.from({ length: 10_000 }, (_, i) => `row-${i}`)
    const onMove = vi.fn()
    render(
      el(VirtualList<string>, {
        items,
        rowHeight: 46,
        height: 460,
        label: 'Exchanges',
        getKey: (s: string) => s,
        renderRow: (s: string) => h('span', null, s),
        selectedIndex: 3,
        onMove,
      }),
    )
    const list = screen.getByRole('list', { name: 'Exchanges' })
    expect(screen.getAllByRole('listitem').length).toBeLessThan(30)
    expect(list.textContent).toContain('row-0')
    expect(list.textContent).not.toContain('row-500')
    fireEvent.keyDown(list, { key: 'ArrowDown' })
    expect(onMove).toHaveBeenLastCalledWith(4)
    fireEvent.keyDown(list, { key: 'ArrowUp' })
    expect(onMove).toHaveBeenLastCalledWith(2)
  })
})

describe('ErrorBoundary', () => {
  it('replaces a view that throws while drawing with a sentence and a way back, not a stack', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    function Broken(): never {
      throw new Error('cannot read properties of undefined')
    }
    render(h(ErrorBoundary, { area: 'Inspector', children: h(Broken) }))
    const alert = screen.getByRole('alert')
    expect(alert.textContent).toContain('Inspector could not be drawn.')
    expect(alert.textContent).toContain('cannot read properties of undefined')
    expect(alert.textContent).not.toMatch(/at Broken|\.tsx:\d+/)
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy()
    spy.mockRestore()
  })
})

describe('ErrorPanel details and problems', () => {
  it('leaves out a detail with no value, and a problem path that repeats its code', () => {
    const { container } = render(
      el(ErrorPanel, {
        error: {
          code: 'INVALID_INPUT',
          what: 'The environment has 2 problems; nothing was saved.',
          cause: 'c',
          fix: 'f',
          details: { url: '', errorCode: 'X' },
          problems: [
            { code: 'baseUrl', path: 'baseUrl', message: 'must use https' },
            { code: 'U002', path: 'Data.Initiation', message: 'bad field' },
          ],
        },
      }),
    )
    expect(container.textContent).not.toContain('url:')
    expect(container.textContent).toContain('errorCode: X')
    expect(container.textContent).toContain('baseUrl must use https')
    expect(container.textContent).not.toContain('at baseUrl')
    expect(container.textContent).toContain('U002 bad field at Data.Initiation')
  })
})

describe('CertificateCard', () => {
  const cert = (isCa: boolean): CertificateInspectionDto => ({
    subjectDn: isCa ? 'CN=OB Issuing CA,OU=Sandbox PKI,O=Bank' : 'CN=App1,OU=0015800001041RHAAY,O=OpenBanking,C=GB',
    issuerDn: 'CN=OB Root CA',
    subject: [],
    issuer: [],
    serialNumber: '01',
    notBefore: '2026-01-01T00:00:00Z',
    notAfter: '2027-01-01T00:00:00Z',
    daysToExpiry: 35,
    expired: false,
    notYetValid: false,
    subjectAltNames: [],
    publicKey: { type: 'RSA', size: 2048 },
    signatureAlgorithm: 'sha256WithRSAEncryption',
    sha256Hex: 'AA:BB',
    x5tS256: 'x5t',
    tlsClientAuthSubjectDn: 'CN=App1,OU=0015800001041RHAAY,O=OpenBanking,C=GB',
    orgId: isCa ? 'Sandbox PKI' : '0015800001041RHAAY',
    softwareId: isCa ? 'OB Issuing CA' : 'App1',
    isCa,
    selfSigned: false,
    keyUsages: [],
    extendedKeyUsages: [],
  })

  it("names a CA's OU and CN as its own names, and an end entity's as the organisation and software ids", async () => {
    const { CertificateCard } = await import('../../../../src-renderer/components/certificate-card.tsx')
    const { container, unmount } = render(el(CertificateCard, { cert: cert(true), title: 'Issuing CA' }))
    expect(container.textContent).toContain('Common name (CN)')
    expect(container.textContent).toContain('Organisational unit (OU)')
    expect(container.textContent).not.toContain('Software id')
    expect(container.textContent).not.toContain('tls_client_auth_subject_dn')
    unmount()
    const leaf = render(el(CertificateCard, { cert: cert(false), title: 'Transport' }))
    expect(leaf.container.textContent).toContain('Software id (CN)App1')
    expect(leaf.container.textContent).toContain('Organisation id (OU)0015800001041RHAAY')
  })
})
