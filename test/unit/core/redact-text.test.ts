import { describe, expect, it } from 'vitest'
import { FULLY_MASKED, maskToken } from '../../../src-main/core/secret-mask.ts'
import { redactHeaders, redactHeaderValue } from '../../../src-main/core/redact-text.ts'
import { redactParams, redactText, redactUrl } from '../../../src-main/core/redact-text.ts'
import { PRIVATE_KEY_REMOVED } from '../../../src-main/core/private-key-scan.ts'
import { code, expectNoKey, jwt, keys, masked, token } from './redact-fixture.ts'

describe('redaction in texts: tokens, codes and credentials are masked', () => {
  it('keeps the auth scheme of credentials headers and masks the credential; other headers are searched by content', () => {
    expect(redactHeaderValue('Authorization', `Bearer ${token}`)).toBe(`Bearer ${masked(token)}`)
    expect(redactHeaderValue('authorization', 'Basic Y2xpZW50OnNlY3JldA==')).toBe(`Basic ${FULLY_MASKED}`)
    expect(redactHeaderValue('Cookie', 'session=1')).toBe(FULLY_MASKED)
    expect(redactHeaderValue('x-fapi-interaction-id', 'abc')).toBe('abc')
    // A challenge is not a credential: its parameters stay.
    expect(redactHeaderValue('WWW-Authenticate', 'Bearer realm="bank", error="invalid_token"')).toBe(
      'Bearer realm="bank", error="invalid_token"',
    )
    expect(redactHeaderValue('x-debug', `sent Bearer ${token}`)).toBe(`sent Bearer ${masked(token)}`)
    expect(redactHeaderValue('Location', `https://tpp/cb#code=${code}&state=s`)).toBe(
      `https://tpp/cb#code=${masked(code)}&state=s`,
    )
    expect(
      redactHeaders([
        ['Authorization', `Bearer ${token}`],
        ['Accept', 'application/json'],
      ]),
    ).toEqual([
      ['Authorization', `Bearer ${masked(token)}`],
      ['Accept', 'application/json'],
    ])
    expect(redactHeaders({ authorization: `Bearer ${token}` })).toEqual({ authorization: `Bearer ${masked(token)}` })
  })

  it('masks secret form parameters (assertions, codes, secrets, PSU passwords) and keeps the others byte for byte', () => {
    const form = `grant_type=client_credentials&scope=accounts+payments&client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer&client_assertion=${jwt}`
    expect(redactParams(form)).toBe(
      `grant_type=client_credentials&scope=accounts+payments&client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer&client_assertion=${maskToken(jwt)}`,
    )
    expect(redactParams(`grant_type=authorization_code&code=${code}&redirect_uri=https%3A%2F%2Ftpp%2Fcb`)).toBe(
      `grant_type=authorization_code&code=${masked(code)}&redirect_uri=https%3A%2F%2Ftpp%2Fcb`,
    )
    expect(redactParams('client_id=x&client_secret=s3cr3t')).toBe(`client_id=x&client_secret=${FULLY_MASKED}`)
    expect(redactParams('login=amelia&password=amelia-sandbox&submit=1')).toBe(
      `login=amelia&password=${FULLY_MASKED}&submit=1`,
    )
    expect(redactParams(`grant_type=refresh_token&refresh_token=${token}`)).toBe(
      `grant_type=refresh_token&refresh_token=${masked(token)}`,
    )
    // A key in a form field, whatever the field's name.
    expectNoKey(redactParams(`note=${encodeURIComponent(keys.rsaPem)}&a=1`))
  })

  it('recognises a secret parameter whose name is percent-encoded, and keeps a name that is not valid encoding', () => {
    expect(redactParams('c%6Fde=abc&state=s')).toBe(`c%6Fde=${FULLY_MASKED}&state=s`)
    expect(redactParams('client%5Fsecret=s3cr3t')).toBe(`client%5Fsecret=${FULLY_MASKED}`)
    expect(redactParams('bad%E0name=v&code=x')).toBe(`bad%E0name=v&code=${FULLY_MASKED}`)
  })

  it('masks codes and tokens in query and fragment, and passwords in the authority', () => {
    expect(redactUrl(`https://tpp.example/cb#code=${code}&id_token=${jwt}&state=s1`)).toBe(
      `https://tpp.example/cb#code=${masked(code)}&id_token=${maskToken(jwt)}&state=s1`,
    )
    expect(redactUrl(`https://tpp.example/cb#access_token=${token}&token_type=Bearer`)).toBe(
      `https://tpp.example/cb#access_token=${masked(token)}&token_type=Bearer`,
    )
    expect(redactUrl('https://user:pw@bank.example/x?code=1&a=2')).toBe(
      `https://user:${FULLY_MASKED}@bank.example/x?code=${FULLY_MASKED}&a=2`,
    )
    expect(redactUrl('https://bank.example/accounts?page=2')).toBe('https://bank.example/accounts?page=2')
  })

  it('masks the credential of every scheme of CREDENTIAL_SCHEMES in a text, in any case; leaves the words in prose', () => {
    const negotiate = 'YIIGhgYJKoZIhvcSAQICAQBuggZ1MIIGcaADAgEFoQMCAQ6iBwMFACAAAACjggRh'
    expect(redactText(`sent Negotiate ${negotiate}`)).toBe(`sent Negotiate ${masked(negotiate)}`)
    expect(redactText(`header Digest ${negotiate}`)).toBe(`header Digest ${masked(negotiate)}`)
    expect(redactText(`sent bearer ${token}`)).toBe(`sent bearer ${masked(token)}`)
    expect(redactText(`sent BEARER ${token}`)).toBe(`sent BEARER ${masked(token)}`)
    expect(redactText(`DPoP ${token}`)).toBe(`DPoP ${masked(token)}`)
    // The same words in a sentence, followed by an ordinary word, are not credentials.
    for (const prose of ['send a bearer token', 'a basic consent', 'negotiate terms', 'the digest header'])
      expect(redactText(prose)).toBe(prose)
    expect(redactHeaderValue('Authorization', `negotiate ${negotiate}`)).toBe(`negotiate ${masked(negotiate)}`)
  })

  it('is idempotent: a second pass leaves masked values alone', () => {
    const once = redactText(`Bearer ${token} code=${code} {"access_token": "${token}"}`)
    expect(redactText(once)).toBe(once)
  })
})

describe('redaction in texts: private key material is removed', () => {
  it('removes raw PEM private keys (PKCS#8, PKCS#1, SEC1, encrypted) and keeps certificates', () => {
    for (const pem of [keys.rsaPem, keys.rsaPkcs1Pem, keys.ecSec1Pem]) {
      const out = redactText(`loaded ${pem} and more`)
      expectNoKey(out)
      expect(out).toContain(PRIVATE_KEY_REMOVED)
      expect(out).toContain('and more')
    }
    expect(redactText('-----BEGIN ENCRYPTED PRIVATE' + ' KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----')).toBe(
      PRIVATE_KEY_REMOVED,
    )
    expect(redactText('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----')).toContain('AAAA')
    // A PEM cut before its end line (a body cut at the cap) goes to the end.
    expectNoKey(redactText(keys.rsaPem.slice(0, 400)))
  })
})
