import { describe, expect, it } from 'vitest'
import { looksLikePrivateKey } from '../../../src-main/core/private-key-scan.ts'
import { PRIVATE_KEY_REMOVED, redactBody, redactJson } from '../../../src-main/core/redact.ts'
import { redactText } from '../../../src-main/core/redact-text.ts'
import { FULLY_MASKED, maskToken, type SecretFound } from '../../../src-main/core/secret-mask.ts'
import { mayHoldSecret } from '../../../src-main/core/secret-quick-scan.ts'
import { code, expectNoKey, jwt, keys, masked, token } from './redact-fixture.ts'

describe('redaction of JSON: tokens, codes and credentials are masked', () => {
  it('keeps a placeholder in words: it holds nothing to hide', () => {
    expect(redactJson({ client_secret: '(stored encrypted)' })).toEqual({ client_secret: '(stored encrypted)' })
  })

  it('masks JSON members by name (also by their ending) and a `code` that is an authorisation code, not an error code', () => {
    const body = {
      access_token: token,
      token_type: 'Bearer',
      expires_in: 3600,
      id_token: jwt,
      refresh_token: token,
      registration_access_token: token,
      Code: 'UK.OBIE.Field.Missing',
      nested: [{ client_secret: 'x' }],
      device_token: 'dt-1',
      tokenType: 'Bearer',
    }
    expect(redactJson(body)).toEqual({
      access_token: masked(token),
      token_type: 'Bearer',
      expires_in: 3600,
      id_token: maskToken(jwt),
      refresh_token: masked(token),
      registration_access_token: masked(token),
      Code: 'UK.OBIE.Field.Missing',
      nested: [{ client_secret: FULLY_MASKED }],
      device_token: FULLY_MASKED,
      tokenType: 'Bearer',
    })
    expect(redactJson({ code: 'TIMEOUT' })).toEqual({ code: 'TIMEOUT' })
    expect(redactJson({ code: 'FLOW_STEP_NOT_READY' })).toEqual({ code: 'FLOW_STEP_NOT_READY' })
    expect(redactJson({ code, state: 's' })).toEqual({ code: masked(code), state: 's' })
  })

  it("masks the value of a name/value pair by its name (a Postman environment's rows); a URL named after a token survives", () => {
    const download = JSON.stringify({
      name: 'Local sandbox - Budget app',
      values: [
        { key: 'tokenEndpoint', value: 'https://127.0.0.1:8444/as/token.oauth2', type: 'default' },
        { key: 'client_secret', value: 'the-client-secret-0123', type: 'default' },
        { key: 'access_token', value: token, type: 'secret' },
        { key: 'client_id', value: 'c-1', type: 'default' },
      ],
    })
    const shown = JSON.parse(redactBody(download, 'application/json')) as {
      values: Array<{ key: string; value: string }>
    }
    const value = (key: string) => shown.values.find((v) => v.key === key)?.value
    expect(value('tokenEndpoint')).toBe('https://127.0.0.1:8444/as/token.oauth2')
    expect(value('client_secret')).toBe(FULLY_MASKED)
    expect(value('access_token')).toBe(maskToken(token))
    expect(value('client_id')).toBe('c-1')
    expect(redactJson([{ name: 'password', value: 'hunter2-hunter2' }])).toEqual([
      { name: 'password', value: FULLY_MASKED },
    ])
  })

  it('returns the same object when nothing is secret, and copies only the path to what it masks', () => {
    const rows = {
      Data: { Transaction: [{ TransactionId: 't1' }, { TransactionId: 't2' }] },
      auth: { access_token: token },
    }
    const out = redactJson(rows) as typeof rows
    expect(out).not.toBe(rows)
    expect(out.Data).toBe(rows.Data)
    expect(out.auth.access_token).toBe(masked(token))
    expect(rows.auth.access_token).toBe(token)
    const clean = { a: [1, 'two', { b: null }] }
    expect(redactJson(clean)).toBe(clean)
  })

  it('masks JSON string values by content: credentials and URL codes inside texts', () => {
    expect(redactJson({ note: `sent Bearer ${token}` })).toEqual({ note: `sent Bearer ${masked(token)}` })
    expect(redactJson({ Links: { Self: `https://tpp/cb?code=${code}&state=s` } })).toEqual({
      Links: { Self: `https://tpp/cb?code=${masked(code)}&state=s` },
    })
  })

  it('reports every secret it meets, and shows the values the user revealed as they are (never a private key)', () => {
    const found: SecretFound[] = []
    const out = redactJson(
      { access_token: token, refresh_token: 'r'.repeat(40), keyPem: keys.rsaPem },
      { revealed: new Set([token, keys.rsaPem]), found: (s) => found.push(s) },
    )
    expect(out).toEqual({ access_token: token, refresh_token: masked('r'.repeat(40)), keyPem: PRIVATE_KEY_REMOVED })
    expect(found.map((f) => [f.kind, f.name, f.revealed])).toEqual([
      ['token', 'access_token', true],
      ['token', 'refresh_token', false],
      ['private-key', 'keyPem', false],
    ])
  })

  it('is idempotent: a second pass leaves masked values alone', () => {
    const json = JSON.stringify(redactJson({ access_token: token, url: `https://x/cb#code=${code}` }))
    expect(redactBody(json, 'application/json')).toBe(json)
  })
})

describe('redaction of JSON and bodies: private key material is removed, in any encoding', () => {
  it('removes a PEM escaped inside a JSON string (the starter kit), under any member name', () => {
    const kit = JSON.stringify({
      orgId: 'o1',
      signingKeyPem: keys.rsaPem,
      transportKeyPem: keys.ecSec1Pem,
      transportCertPem: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
      whatever: keys.rsaPkcs1Pem,
    })
    expect(kit).toContain('\\n')
    const out = redactBody(kit, 'application/json')
    expectNoKey(out)
    const parsed = JSON.parse(out) as Record<string, string>
    expect(parsed.signingKeyPem).toBe(PRIVATE_KEY_REMOVED)
    expect(parsed.whatever).toBe(PRIVATE_KEY_REMOVED)
    expect(parsed.transportCertPem).toContain('BEGIN CERTIFICATE')
    // The same text cut (not JSON any more): the free-text rules find it too.
    expectNoKey(redactBody(kit.slice(0, kit.length - 300), 'application/json'))
    // A key whose JSON escapes hide its markers (\u002d is '-').
    const escaped = kit.replace(
      new RegExp('-----BEGIN PRIVATE' + ' KEY-----'),
      '\\u002d\\u002d\\u002d\\u002d\\u002dBEGIN PRIVATE' + ' KEY\\u002d\\u002d\\u002d\\u002d\\u002d',
    )
    expectNoKey(JSON.parse(redactBody(escaped, 'application/json')).signingKeyPem as string)
  })

  it('removes base64 of a PEM in a field, at any alignment, and base64 DER private keys', () => {
    const at = (prefix: string) => Buffer.from(prefix + keys.rsaPem).toString('base64')
    for (const prefix of ['', 'x', 'xy', 'cert first\n']) {
      const body = JSON.stringify({ keyFile: 'k', content: at(prefix) })
      const out = redactBody(body, 'application/json')
      expect(JSON.parse(out).content).toBe(PRIVATE_KEY_REMOVED)
      expect(looksLikePrivateKey(at(prefix))).toBe(true)
    }
    for (const der of [keys.rsaDerB64, keys.ecDerB64, keys.ecPkcs8DerB64]) {
      expect(JSON.parse(redactBody(JSON.stringify({ blob: der }), 'application/json')).blob).toBe(PRIVATE_KEY_REMOVED)
      expectNoKey(redactText(`key: ${der} end`))
    }
    // A public key or certificate in base64 stays.
    expect(redactBody(JSON.stringify({ x5c: [keys.certLikeB64] }), 'application/json')).toBe(
      JSON.stringify({ x5c: [keys.certLikeB64] }),
    )
    expect(looksLikePrivateKey(keys.certLikeB64)).toBe(false)
  })

  it('removes the private members of JWKs, public members stay', () => {
    const jwks = {
      keys: [
        { ...keys.privateJwk, kid: 'k1' },
        { kty: 'oct', k: 'c2VjcmV0LWhtYWMta2V5' },
      ],
    }
    const out = redactJson(jwks) as { keys: Array<Record<string, string>> }
    for (const m of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(out.keys[0]![m]).toBe(PRIVATE_KEY_REMOVED)
    expect(out.keys[0]!.n).toBe(keys.privateJwk.n)
    expect(out.keys[1]!.k).toBe(PRIVATE_KEY_REMOVED)
    expectNoKey(JSON.stringify(out))
    expect(redactJson({ d: 1 })).toEqual({ d: 1 })
    // Never revealable.
    expect(redactJson({ kty: 'EC', d: 'dddd' }, { revealed: new Set(['dddd']) })).toEqual({
      kty: 'EC',
      d: PRIVATE_KEY_REMOVED,
    })
  })

  it('keeps a public key under a key-ish name', () => {
    const pub = keys.rsa.publicKey.export({ format: 'pem', type: 'spki' }) as string
    expect(redactJson({ publicKeyPem: pub })).toEqual({ publicKeyPem: pub })
  })
})

describe('redaction: bodies and the quick scan', () => {
  it('redacts bodies by content type and keeps a body with no secret byte for byte', () => {
    const pretty = '{\n  "Data": { "ConsentId": "c1" }\n}'
    expect(redactBody(pretty, 'application/json')).toBe(pretty)
    expect(redactBody(`{"access_token":"${token}","expires_in":1}`, 'application/json; charset=utf-8')).toBe(
      `{"access_token":"${masked(token)}","expires_in":1}`,
    )
    expect(redactBody('code=abc&state=s', 'application/x-www-form-urlencoded')).toBe(`code=${FULLY_MASKED}&state=s`)
    expect(redactBody(jwt, 'application/jwt')).toBe(jwt)
    // An HTML page (a redirect page) with a code in a link.
    expect(redactBody(`<a href="https://tpp/cb#code=${code}&amp;state=s">`, 'text/html')).toBe(
      `<a href="https://tpp/cb#code=${masked(code)}&amp;state=s">`,
    )
  })

  it('returns a large body with no secret as it is, without the full rules, and still redacts what they would', () => {
    const rows = Array.from({ length: 2000 }, (_, i) => ({
      TransactionId: `tx-${i}`,
      Amount: { Amount: `${i}.50`, Currency: 'GBP' },
      Links: { Self: `https://bank/tx?page=${i}` },
      ProprietaryBankTransactionCode: { Code: 'DEB' },
      token_type: 'Bearer',
      Note: 'pound \u00a3 12',
    }))
    const list = JSON.stringify({ Data: { Transaction: rows } })
    expect(mayHoldSecret(list)).toBe(false)
    expect(redactBody(list, 'application/json')).toBe(list)
    const cases: Array<[string, string]> = [
      [`{"Data":[{"a":1}],"client_secret":"s3"}`, `{"Data":[{"a":1}],"client_secret":"${FULLY_MASKED}"}`],
      // A member name written with escapes is the same name to JSON.parse.
      [`{"client\\u005fsecret" : "s3"}`, `{"client_secret":"${FULLY_MASKED}"}`],
      [
        `{"keys":[{"kty":"EC","d":"private-scalar","x":"x1"}]}`,
        `{"keys":[{"kty":"EC","d":"${PRIVATE_KEY_REMOVED}","x":"x1"}]}`,
      ],
      // Not JSON (cut, or only looks like it): the free-text rules.
      [`{"note":"sent Bearer ${token}", `, `{"note":"sent Bearer ${masked(token)}", `],
      [`{"url":"https://tpp/cb?code=c0de&state=s"`, `{"url":"https://tpp/cb?code=${FULLY_MASKED}&state=s"`],
      [`{"access_token": "t1", "x": [`, `{"access_token": "${FULLY_MASKED}", "x": [`],
      [`{"a":"${keys.rsaDerB64}"}`, `{"a":"${PRIVATE_KEY_REMOVED}"}`],
      [`{"a":"${Buffer.from(keys.rsaPem).toString('base64')}"}`, `{"a":"${PRIVATE_KEY_REMOVED}"}`],
    ]
    for (const [body, redacted] of cases) {
      expect(mayHoldSecret(body)).toBe(true)
      expect(redactBody(body, 'application/json')).toBe(redacted)
    }
    expect(redactText('a plain log line about page=2')).toBe('a plain log line about page=2')
  })
})
