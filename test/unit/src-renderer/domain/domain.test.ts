import { describe, expect, it } from 'vitest'
import {
  captureModes,
  defaultCapture,
  guideCaptureChoices,
  sandboxProfile,
} from '../../../../src-renderer/domain/capture.ts'
import { environmentAddresses, joinUrl } from '../../../../src-renderer/domain/environment-addresses.ts'
import { DEFAULT_PAYMENT, paymentInitiation, paymentProblems } from '../../../../src-renderer/domain/pis-defaults.ts'

describe('payment defaults', () => {
  it('builds a v4.0 Initiation with a fresh InstructionIdentification each time', () => {
    const a = paymentInitiation(DEFAULT_PAYMENT)
    const b = paymentInitiation(DEFAULT_PAYMENT)
    expect(a.initiation.InstructionIdentification).not.toBe(b.initiation.InstructionIdentification)
    expect(String(a.initiation.InstructionIdentification).length).toBeLessThanOrEqual(35)
    expect(a.initiation).toMatchObject({
      InstructedAmount: { Amount: '10.00', Currency: 'GBP' },
      CreditorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber' },
    })
    expect(a.risk).toHaveProperty('PaymentContextCode')
  })

  it('names each problem with the fields', () => {
    expect(paymentProblems(DEFAULT_PAYMENT)).toEqual([])
    expect(
      paymentProblems({
        ...DEFAULT_PAYMENT,
        amount: '10',
        currency: 'gbp',
        creditorName: ' ',
        reference: 'x'.repeat(36),
      }),
    ).toEqual([
      'Data.Initiation.InstructedAmount.Currency: "gbp" is not a currency code: three capital letters (ISO 4217), e.g. GBP.',
      'Data.Initiation.CreditorAccount.Name: The creditor name is required.',
      'Data.Initiation.RemittanceInformation.Structured[0].CreditorReferenceInformation.Reference: At most 35 characters (36 now).',
    ])
  })
})

describe('capture modes', () => {
  it('offers headless on sandboxes, the auth window on the desktop only, and defaults per host and environment', () => {
    expect(captureModes('web', 'local-sandbox')).toEqual(['headless', 'loopback', 'deeplink', 'pasted'])
    expect(captureModes('electron', 'production')).toEqual(['auth-window', 'loopback', 'deeplink', 'pasted'])
    expect(defaultCapture('web', 'local-sandbox')).toBe('headless')
    expect(defaultCapture('web', 'bank-sandbox')).toBe('loopback')
    expect(defaultCapture('electron', 'bank-sandbox')).toBe('auth-window')
    expect(defaultCapture('web', 'production')).toBe('deeplink')
  })

  it('defaults to a login on the local sandbox when the client cannot authorise headless', () => {
    expect(defaultCapture('web', 'local-sandbox', false)).toBe('loopback')
    expect(defaultCapture('electron', 'local-sandbox', false)).toBe('auth-window')
    expect(defaultCapture('web', 'local-sandbox', true)).toBe('headless')
  })

  it('offers the guide headless approval on the local sandbox only, and the login the host can open', () => {
    expect(guideCaptureChoices('web', true).map(([mode]) => mode)).toEqual(['headless', 'loopback', 'pasted'])
    expect(guideCaptureChoices('electron', false).map(([mode]) => mode)).toEqual(['auth-window', 'pasted'])
    expect(guideCaptureChoices('web', false)[0]).toEqual(['loopback', 'Log in as a test PSU in a browser tab'])
  })

  it('names the local sandbox profile from the form and the capture', () => {
    expect(sandboxProfile({ tokenEndpointAuthMethod: 'private_key_jwt', requestObjectSigningAlg: 'PS256' }, true)).toBe(
      'strict-headless',
    )
    expect(
      sandboxProfile({ tokenEndpointAuthMethod: 'client_secret_basic', requestObjectSigningAlg: 'PS256' }, false),
    ).toBe('permissive')
    expect(sandboxProfile({}, false)).toBe('strict')
  })
})

describe('environment addresses', () => {
  const paths = {
    registration: '/dynamic-client-registration/v3.2/register',
    ais: '/open-banking/v4.0/aisp',
    pis: '/open-banking/v4.0/pisp',
    o3: '/o3/v1.0',
  }

  it('resolves every address of a bank sandbox, never the {base_url} placeholder', () => {
    const list = environmentAddresses({
      kind: 'bank-sandbox',
      baseUrl: 'https://ob.sandbox.bank.example/',
      authUrl: 'https://auth.sandbox.bank.example',
      apiPaths: paths,
    })
    expect(list.map((a) => a.url)).toEqual([
      'https://ob.sandbox.bank.example',
      'https://auth.sandbox.bank.example',
      'https://auth.sandbox.bank.example/.well-known/openid-configuration',
      'https://ob.sandbox.bank.example/dynamic-client-registration/v3.2/register',
      'https://ob.sandbox.bank.example/open-banking/v4.0/aisp',
      'https://ob.sandbox.bank.example/open-banking/v4.0/pisp',
      'https://ob.sandbox.bank.example/o3/v1.0',
    ])
    expect(list.every((a) => !a.url!.includes('{'))).toBe(true)
  })

  it('leaves out the /o3 helper in production, adds the directory of a running local sandbox, and gives no URL for an unset base', () => {
    expect(
      environmentAddresses({
        kind: 'production',
        baseUrl: 'https://ob.bank.example',
        authUrl: 'https://auth.bank.example',
        apiPaths: paths,
      }).map((a) => a.label),
    ).not.toContain('Sandbox /o3 helper')
    const local = environmentAddresses(
      { kind: 'local-sandbox', baseUrl: 'https://127.0.0.1:8443', authUrl: 'https://127.0.0.1:8444', apiPaths: paths },
      { directoryUrl: 'https://127.0.0.1:8445' },
    )
    expect(local.at(-1)).toEqual({
      label: 'Directory (local)',
      url: 'https://127.0.0.1:8445',
      from: "the local sandbox's directory",
    })
    const unset = environmentAddresses({ kind: 'bank-sandbox', baseUrl: '', authUrl: 'not a url', apiPaths: paths })
    expect(unset.every((a) => a.url === undefined)).toBe(true)
    expect(joinUrl('https://a.example/base/', '/x')).toBe('https://a.example/base/x')
  })
})
