import { describe, expect, it } from 'vitest'
import { mayHoldSecret, REDACTED, redactBody, redactHeaderValue, redactHeaders, redactJson, redactParams, redactText, redactUrl } from '../../../src-main/core/redact.ts'

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url')
const jwt = `${b64({ alg: 'PS256' })}.${b64({ iss: 'client-1' })}.c2lnbmF0dXJlLWJ5dGVz`
const jwtRedacted = `${b64({ alg: 'PS256' })}.${b64({ iss: 'client-1' })}.${REDACTED}`

describe('redaction', () => {
  it('keeps the auth scheme of credentials headers and hides the credential', () => {
    expect(redactHeaderValue('Authorization', 'Bearer abc.def')).toBe('Bearer REDACTED')
    expect(redactHeaderValue('authorization', 'Basic Y2xpZW50OnNlY3JldA==')).toBe('Basic REDACTED')
    expect(redactHeaderValue('Authorization', `Bearer ${jwt}`)).toBe(`Bearer ${jwtRedacted}`)
    expect(redactHeaderValue('Cookie', 'session=1')).toBe('REDACTED')
    expect(redactHeaderValue('x-fapi-interaction-id', 'abc')).toBe('abc')
    expect(redactHeaders([['Authorization', 'Bearer x'], ['Accept', 'application/json']])).toEqual([['Authorization', 'Bearer REDACTED'], ['Accept', 'application/json']])
    expect(redactHeaders({ authorization: 'Bearer x' })).toEqual({ authorization: 'Bearer REDACTED' })
  })

  it('redacts secret form parameters and keeps the others byte for byte', () => {
    const form = `grant_type=client_credentials&scope=accounts+payments&client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer&client_assertion=${jwt}`
    expect(redactParams(form)).toBe(`grant_type=client_credentials&scope=accounts+payments&client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer&client_assertion=${jwtRedacted}`)
    expect(redactParams('grant_type=authorization_code&code=abc123&redirect_uri=https%3A%2F%2Ftpp%2Fcb')).toBe('grant_type=authorization_code&code=REDACTED&redirect_uri=https%3A%2F%2Ftpp%2Fcb')
    expect(redactParams('client_id=x&client_secret=s3cr3t')).toBe('client_id=x&client_secret=REDACTED')
  })

  it('recognises a secret parameter whose name is percent-encoded, and keeps a name that is not valid encoding', () => {
    expect(redactParams('c%6Fde=abc&state=s')).toBe('c%6Fde=REDACTED&state=s')
    expect(redactParams('client%5Fsecret=s3cr3t')).toBe('client%5Fsecret=REDACTED')
    expect(redactParams('bad%E0name=v&code=x')).toBe('bad%E0name=v&code=REDACTED')
  })

  it('redacts codes and tokens in query and fragment, and passwords in the authority', () => {
    expect(redactUrl(`https://tpp.example/cb#code=c0de&id_token=${jwt}&state=s1`)).toBe(`https://tpp.example/cb#code=REDACTED&id_token=${jwtRedacted}&state=s1`)
    expect(redactUrl('https://user:pw@bank.example/x?code=1&a=2')).toBe('https://user:REDACTED@bank.example/x?code=REDACTED&a=2')
    expect(redactUrl('https://bank.example/accounts')).toBe('https://bank.example/accounts')
  })

  it('redacts JSON members by exact name and private JWK members', () => {
    const body = { access_token: 'opaque-token', token_type: 'Bearer', expires_in: 3600, id_token: jwt, Code: '400', nested: [{ client_secret: 'x' }] }
    expect(redactJson(body)).toEqual({ access_token: REDACTED, token_type: 'Bearer', expires_in: 3600, id_token: jwtRedacted, Code: '400', nested: [{ client_secret: REDACTED }] })
    expect(redactJson({ kty: 'RSA', n: 'nnn', e: 'AQAB', d: 'ddd', p: 'ppp' })).toEqual({ kty: 'RSA', n: 'nnn', e: 'AQAB', d: REDACTED, p: REDACTED })
    // `code` is a secret as a parameter (authorisation code), not as a JSON member (an error code).
    expect(redactJson({ code: 'TIMEOUT' })).toEqual({ code: 'TIMEOUT' })
    expect(redactText('{"code": "TIMEOUT"} then code=abc')).toBe('{"code": "TIMEOUT"} then code=REDACTED')
    // `d` outside a JWK is not a secret.
    expect(redactJson({ d: 1 })).toEqual({ d: 1 })
  })

  it('redacts PEM private keys, credentials and secret parameters inside free text', () => {
    const pem = '-----BEGIN PRIVATE' + ' KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----'
    const text = `loaded ${pem} and sent Bearer abc123 with code=xyz and {"refresh_token": "rt-1"}`
    const out = redactText(text)
    expect(out).not.toContain('MIIEvQ')
    expect(out).not.toContain('abc123')
    expect(out).not.toContain('xyz')
    expect(out).not.toContain('rt-1')
    expect(out).toContain('-----BEGIN PRIVATE' + ' KEY-----\nREDACTED\n-----END PRIVATE KEY-----')
    expect(redactText('-----BEGIN ENCRYPTED PRIVATE' + ' KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----')).not.toContain('AAAA')
    expect(redactText('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----')).toContain('AAAA')
  })

  it('redacts bodies by content type and keeps a body with no secret byte for byte', () => {
    const pretty = '{\n  "Data": { "ConsentId": "c1" }\n}'
    expect(redactBody(pretty, 'application/json')).toBe(pretty)
    expect(redactBody('{"access_token":"t","expires_in":1}', 'application/json; charset=utf-8')).toBe('{"access_token":"REDACTED","expires_in":1}')
    expect(redactBody('code=abc&state=s', 'application/x-www-form-urlencoded')).toBe('code=REDACTED&state=s')
    expect(redactBody(jwt, 'application/jwt')).toBe(jwt)
  })

  it('returns a large body with no secret as it is, without the full rules, and still redacts what they would', () => {
    const rows = Array.from({ length: 2000 }, (_, i) => ({ TransactionId: `tx-${i}`, Amount: { Amount: `${i}.50`, Currency: 'GBP' }, Links: { Self: `https://bank/tx?page=${i}` }, Code: 'DEB', token_type: 'Bearer' }))
    const list = JSON.stringify({ Data: { Transaction: rows } })
    expect(mayHoldSecret(list)).toBe(false)
    expect(redactBody(list, 'application/json')).toBe(list)
    expect(redactBody(`${list.slice(0, -1)}`, 'application/json')).toBe(list.slice(0, -1))
    // Each thing a rule looks for sends the body through the full rules.
    const cases: Array<[string, string]> = [
      [`{"Data":[{"a":1}],"client_secret":"s3"}`, `{"Data":[{"a":1}],"client_secret":"${REDACTED}"}`],
      // A member name written with escapes is the same name to JSON.parse.
      [`{"client\\u005fsecret" : "s3"}`, `{"client_secret":"${REDACTED}"}`],
      [`{"keys":[{"kty":"EC","d":"private-scalar","x":"x1"}]}`, `{"keys":[{"kty":"EC","d":"${REDACTED}","x":"x1"}]}`],
      // Not JSON (cut, or only looks like it): the free-text rules.
      [`{"note":"sent Bearer abc123", `, `{"note":"sent Bearer ${REDACTED}", `],
      [`{"url":"https://tpp/cb?code=c0de&state=s"`, `{"url":"https://tpp/cb?code=${REDACTED}&state=s"`],
      [`{"access_token": "t1", "x": [`, `{"access_token": "${REDACTED}", "x": [`],
    ]
    for (const [body, redacted] of cases) {
      expect(mayHoldSecret(body)).toBe(true)
      expect(redactBody(body, 'application/json')).toBe(redacted)
    }
    // Valid JSON with a credential-looking text in a value keeps it (members are redacted by name).
    const note = '{"note":"sent Bearer abc123 with code=xyz"}'
    expect(mayHoldSecret(note)).toBe(true)
    expect(redactBody(note, 'application/json')).toBe(note)
    expect(redactText('a plain log line about page=2')).toBe('a plain log line about page=2')
    expect(mayHoldSecret('{"pound":"\\u00a3 12"}')).toBe(false)
  })
})
