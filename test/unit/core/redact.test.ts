import { generateKeyPairSync } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  FULLY_MASKED,
  isMasked,
  looksLikePrivateKey,
  maskToken,
  mayHoldSecret,
  PRIVATE_KEY_REMOVED,
  redactBody,
  redactHeaderValue,
  redactHeaders,
  redactJson,
  redactParams,
  redactText,
  redactUrl,
  secretKindOfName,
  secretRef,
  type SecretFound,
} from '../../../src-main/core/redact.ts'

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url')
const jwt = `${b64({ alg: 'PS256', kid: 'k1' })}.${b64({ iss: 'client-1', aud: 'https://bank' })}.c2lnbmF0dXJlLWJ5dGVzLWxvbmctZW5vdWdo`
const masked = (v: string) => `${v.slice(0, 8)}…${v.slice(-8)}`
const token = 'opaque-access-token-0123456789abcdefXYZ'
const code = 'c0de-6f1a2b3c4d5e6f7a8b9c0d1e2f3a4b'

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 })
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' })
const rsaPem = rsa.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string
const rsaPkcs1Pem = rsa.privateKey.export({ format: 'pem', type: 'pkcs1' }) as string
const ecSec1Pem = ec.privateKey.export({ format: 'pem', type: 'sec1' }) as string
const rsaDerB64 = (rsa.privateKey.export({ format: 'der', type: 'pkcs8' }) as Buffer).toString('base64')
const ecDerB64 = (ec.privateKey.export({ format: 'der', type: 'sec1' }) as Buffer).toString('base64')
const ecPkcs8DerB64 = (ec.privateKey.export({ format: 'der', type: 'pkcs8' }) as Buffer).toString('base64')
const certLikeB64 = (rsa.publicKey.export({ format: 'der', type: 'spki' }) as Buffer).toString('base64')
const privateJwk = rsa.privateKey.export({ format: 'jwk' }) as Record<string, string>
/** Pieces of the key that must never survive: its base64 body lines and its JWK private members. */
const keyPieces = [
  ...rsaPem.split('\n').filter((l) => l.length > 40 && !l.startsWith('-----')),
  ...ecSec1Pem.split('\n').filter((l) => l.length > 40 && !l.startsWith('-----')),
  privateJwk.d!.slice(10, 50),
  privateJwk.p!.slice(10, 50),
  privateJwk.q!.slice(10, 50),
  rsaDerB64.slice(100, 160),
  ecDerB64.slice(20, 60),
]
function expectNoKey(text: string): void {
  expect(text).not.toMatch(/PRIVATE KEY-----/)
  for (const piece of keyPieces) expect(text).not.toContain(piece)
}

describe('redaction: tokens, codes and credentials are masked', () => {
  it('masks long values as first 8 … last 8 and short ones whole', () => {
    expect(maskToken(token)).toBe(masked(token))
    expect(maskToken(jwt)).toBe(`eyJhbGci…${jwt.slice(-8)}`)
    expect(maskToken('short-secret')).toBe(FULLY_MASKED)
    expect(isMasked(masked(token))).toBe(true)
    expect(isMasked(FULLY_MASKED)).toBe(true)
    expect(isMasked(PRIVATE_KEY_REMOVED)).toBe(true)
    expect(isMasked(token)).toBe(false)
    expect(redactJson({ client_secret: '(stored encrypted)' })).toEqual({ client_secret: '(stored encrypted)' })
  })

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
    expectNoKey(redactParams(`note=${encodeURIComponent(rsaPem)}&a=1`))
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
    expect(secretKindOfName('registrationAccessToken')).toBe('token')
    expect(secretKindOfName('transportKeyPem')).toBe('private-key')
    expect(secretKindOfName('token_endpoint')).toBeUndefined()
    expect(secretKindOfName('caBundlePem')).toBeUndefined()
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
      { access_token: token, refresh_token: 'r'.repeat(40), keyPem: rsaPem },
      { revealed: new Set([token, rsaPem]), found: (s) => found.push(s) },
    )
    expect(out).toEqual({ access_token: token, refresh_token: masked('r'.repeat(40)), keyPem: PRIVATE_KEY_REMOVED })
    expect(found.map((f) => [f.kind, f.name, f.revealed])).toEqual([
      ['token', 'access_token', true],
      ['token', 'refresh_token', false],
      ['private-key', 'keyPem', false],
    ])
    expect(secretRef(token)).toBe(secretRef(token))
    expect(secretRef(token)).not.toContain(token.slice(0, 6))
  })

  it('is idempotent: a second pass leaves masked values alone', () => {
    const once = redactText(`Bearer ${token} code=${code} {"access_token": "${token}"}`)
    expect(redactText(once)).toBe(once)
    const json = JSON.stringify(redactJson({ access_token: token, url: `https://x/cb#code=${code}` }))
    expect(redactBody(json, 'application/json')).toBe(json)
  })
})

describe('redaction: private key material is removed, in any encoding', () => {
  it('removes raw PEM private keys (PKCS#8, PKCS#1, SEC1, encrypted) and keeps certificates', () => {
    for (const pem of [rsaPem, rsaPkcs1Pem, ecSec1Pem]) {
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
    expectNoKey(redactText(rsaPem.slice(0, 400)))
  })

  it('removes a PEM escaped inside a JSON string (the starter kit), under any member name', () => {
    const kit = JSON.stringify({
      orgId: 'o1',
      signingKeyPem: rsaPem,
      transportKeyPem: ecSec1Pem,
      transportCertPem: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
      whatever: rsaPkcs1Pem,
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
    const at = (prefix: string) => Buffer.from(prefix + rsaPem).toString('base64')
    for (const prefix of ['', 'x', 'xy', 'cert first\n']) {
      const body = JSON.stringify({ keyFile: 'k', content: at(prefix) })
      const out = redactBody(body, 'application/json')
      expect(JSON.parse(out).content).toBe(PRIVATE_KEY_REMOVED)
      expect(looksLikePrivateKey(at(prefix))).toBe(true)
    }
    for (const der of [rsaDerB64, ecDerB64, ecPkcs8DerB64]) {
      expect(JSON.parse(redactBody(JSON.stringify({ blob: der }), 'application/json')).blob).toBe(PRIVATE_KEY_REMOVED)
      expectNoKey(redactText(`key: ${der} end`))
    }
    // A public key or certificate in base64 stays.
    expect(redactBody(JSON.stringify({ x5c: [certLikeB64] }), 'application/json')).toBe(
      JSON.stringify({ x5c: [certLikeB64] }),
    )
    expect(looksLikePrivateKey(certLikeB64)).toBe(false)
  })

  it('removes the private members of JWKs, public members stay', () => {
    const jwks = {
      keys: [
        { ...privateJwk, kid: 'k1' },
        { kty: 'oct', k: 'c2VjcmV0LWhtYWMta2V5' },
      ],
    }
    const out = redactJson(jwks) as { keys: Array<Record<string, string>> }
    for (const m of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(out.keys[0]![m]).toBe(PRIVATE_KEY_REMOVED)
    expect(out.keys[0]!.n).toBe(privateJwk.n)
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
    const pub = rsa.publicKey.export({ format: 'pem', type: 'spki' }) as string
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
      [`{"a":"${rsaDerB64}"}`, `{"a":"${PRIVATE_KEY_REMOVED}"}`],
      [`{"a":"${Buffer.from(rsaPem).toString('base64')}"}`, `{"a":"${PRIVATE_KEY_REMOVED}"}`],
    ]
    for (const [body, redacted] of cases) {
      expect(mayHoldSecret(body)).toBe(true)
      expect(redactBody(body, 'application/json')).toBe(redacted)
    }
    expect(redactText('a plain log line about page=2')).toBe('a plain log line about page=2')
  })
})
