import { describe, expect, it } from 'vitest'
import type { SpecReferenceDto } from '../../../src-main/contract/diagnosis.ts'
import type { AppErrorDto } from '../../../src-main/contract/errors.ts'
import { SPEC, specReferencesFor } from '../../../src-main/http/spec-references.ts'

const error = (code: AppErrorDto['code'], extra: Partial<AppErrorDto> = {}): AppErrorDto => ({
  code,
  what: 'w',
  cause: 'c',
  fix: 'f',
  ...extra,
})
const sections = (e: AppErrorDto, method = 'GET', url = 'https://rs.bank/open-banking/v4.0/aisp/accounts') =>
  specReferencesFor(e, { method, url })

describe('specReferencesFor', () => {
  it('puts the broken rule first, by code and by where the request went', () => {
    expect(sections(error('TLS_CLIENT_CERT_REFUSED'))).toEqual([SPEC.bankTransport, SPEC.mtls])
    expect(sections(error('TLS_SERVER_UNTRUSTED'))).toEqual([SPEC.bankTransport, SPEC.fapiTls])
    expect(sections(error('DCR_ERROR'))).toEqual([SPEC.dcrError, SPEC.obDcr, SPEC.bankRegistration])
    expect(
      sections(
        error('OAUTH_ERROR', { problems: [{ code: 'invalid_grant', message: '' }] }),
        'POST',
        'https://as/token',
      ),
    ).toEqual([SPEC.oauthTokenError])
    expect(
      sections(
        error('OAUTH_ERROR', { problems: [{ code: 'invalid_request_object', message: '' }] }),
        'GET',
        'https://as/authorize',
      ),
    ).toEqual([SPEC.requestObject, SPEC.oauthAuthzError])
    expect(sections(error('OAUTH_ERROR', { problems: [{ code: 'invalid_token', message: '' }] }))).toEqual([
      SPEC.bearerError,
    ])
    expect(sections(error('HTTP_ERROR', { details: { status: 404 } }))).toEqual([SPEC.obStatuses, SPEC.bankVersions])
    expect(sections(error('HTTP_ERROR', { details: { status: 415 } }), 'POST', 'https://as/register')).toEqual([
      SPEC.obStatuses,
      SPEC.bankRegistration,
    ])
    expect(
      sections(
        error('OB_ERROR', {
          details: { status: 429 },
          problems: [{ code: 'U000 UK.OBIE.UnexpectedError', message: '' }],
        }),
      ),
    ).toEqual([SPEC.obErrors, SPEC.bankLimits])
  })

  it('gives a network failure no section, except idempotency for a POST left without an answer', () => {
    expect(sections(error('DNS_NOT_FOUND'))).toEqual([])
    expect(sections(error('TIMEOUT'))).toEqual([])
    expect(sections(error('CONNECTION_RESET'), 'POST')).toEqual([SPEC.obIdempotency])
  })

  it('links only what is public', () => {
    for (const ref of Object.values(SPEC) as SpecReferenceDto[]) if (ref.url) expect(ref.url).toMatch(/^https:\/\//)
    expect((SPEC.bankTransport as SpecReferenceDto).url).toBeUndefined()
  })
})
