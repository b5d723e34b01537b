import { useState } from 'react'
import type { JwtVerifyInput } from '../../../src-main/contract/api.ts'
import { ChecksList } from '../../components/checks-list.tsx'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { KeyValue } from '../../components/key-value.tsx'
import { optionsOf, SelectField } from '../../components/select-field.tsx'
import { TextAreaField, TextField } from '../../components/text-field.tsx'
import { Code } from '../../editor/lazy.tsx'
import { formatDate, toJson } from '../../lib/format.ts'
import { useApp } from '../../store/store.ts'
import { KeySourceFieldset, useKeySource, verificationKey } from './key-source.tsx'

type Rules = NonNullable<JwtVerifyInput['rules']>

/** The values each rule set compares with (names as the engine reads them). */
const EXPECTED: Record<Rules, string[]> = {
  none: [],
  registration: ['authUrl', 'environmentKind'],
  'request-object': ['issuer', 'redirectUri', 'consentId'],
  'id-token': ['issuer', 'clientId', 'nonce', 'code', 'state', 'consentId'],
  'client-assertion': ['clientId', 'tokenEndpoint'],
  'software-statement': [],
}

const RULES = optionsOf<Rules>({
  none: 'None',
  registration: 'Registration JWT (table 2.1)',
  'request-object': 'Request object',
  'id-token': 'ID token',
  'client-assertion': 'Client assertion (private_key_jwt)',
  'software-statement': 'Software statement (SSA)',
})

const EXPECTED_LABELS: Record<string, string> = {
  authUrl: 'Expected aud ({auth_url})',
  environmentKind: 'Environment kind (bank-sandbox or production)',
  issuer: 'Expected issuer',
  redirectUri: 'Expected redirect_uri',
  consentId: 'Expected consent id (openbanking_intent_id)',
  clientId: 'Expected client id (aud)',
  tokenEndpoint: 'Expected aud (the token endpoint)',
  nonce: 'Expected nonce',
  code: 'Authorisation code (for c_hash)',
  state: 'State (for s_hash)',
}

/** The rules to check and the values they compare with. */
function useRules() {
  const [rules, setRules] = useState<Rules>('none')
  const [expected, setExpected] = useState<Record<string, string>>({})
  /** The values filled in that the chosen rules compare with. */
  const expectedOfRules = () =>
    Object.fromEntries(Object.entries(expected).filter(([k, v]) => v && EXPECTED[rules].includes(k)))
  return { rules, setRules, expected, setExpected, expectedOfRules }
}

/** The rule set and the values it compares with. */
function RulesFields({ r }: { r: ReturnType<typeof useRules> }) {
  return (
    <>
      <SelectField label="Rules" value={r.rules} options={RULES} onChange={r.setRules} />
      {EXPECTED[r.rules].length ? (
        <div className="grid-2">
          {EXPECTED[r.rules].map((k) => (
            <TextField
              key={k}
              label={EXPECTED_LABELS[k] ?? k}
              value={r.expected[k] ?? ''}
              onChange={(value) => r.setExpected({ ...r.expected, [k]: value })}
            />
          ))}
        </div>
      ) : null}
    </>
  )
}

/** The token pasted, with why it could not be decoded. */
function TokenField() {
  const jwt = useApp((s) => s.jwt)
  const setToken = useApp((s) => s.setJwtToken)
  const decodeOp = useApp((s) => s.ops['jwt.decode'])
  return (
    <>
      <TextAreaField
        label="JWT"
        hint="Paste a registration JWT, request object, ID token, SSA or any compact JWS. It stays on this machine."
        rows={7}
        value={jwt.token}
        onChange={setToken}
        spellCheck={false}
        className="mono"
      />
      <ErrorPanel error={decodeOp?.error} title="Not decoded" />
      {jwt.decoded?.error ? (
        <p className="text-fail" role="alert">
          {jwt.decoded.error}
        </p>
      ) : null}
    </>
  )
}

/** The token's signature, header, claims and times, once decoded. */
function DecodedJwt() {
  const decoded = useApp((s) => s.jwt.decoded)
  return (
    <section className="card" aria-label="Decoded JWT">
      {decoded && !decoded.error ? (
        <>
          <p className="small">
            Signature: <strong>{decoded.signature}</strong>
          </p>
          <div className="muted small">Header</div>
          <Code value={toJson(decoded.header)} ariaLabel="Decoded header" />
          <div className="muted small">Claims</div>
          <Code
            value={decoded.claims ? toJson(decoded.claims) : '(no JSON claims)'}
            language={decoded.claims ? 'json' : 'plaintext'}
            ariaLabel="Decoded claims"
            height={360}
          />
          {Object.keys(decoded.times).length ? (
            <KeyValue
              label="Times"
              rows={Object.entries(decoded.times).map(([k, v]) => [k, `${formatDate(v)} (${v})`])}
            />
          ) : null}
        </>
      ) : (
        <p className="muted">The decoded header and claims show here.</p>
      )}
    </section>
  )
}

/** The token, the key and rules to verify it with, the Verify button and the verification's checks. */
function VerifyCard() {
  const jwt = useApp((s) => s.jwt)
  const verify = useApp((s) => s.verifyJwt)
  const verifyOp = useApp((s) => s.ops['jwt.verify'])
  const k = useKeySource()
  const r = useRules()
  const [keyError, setKeyError] = useState<string>()
  const verified = jwt.verified?.token === jwt.token.trim() ? jwt.verified : undefined

  const run = () => {
    setKeyError(undefined)
    const found = verificationKey(k)
    if ('error' in found) {
      setKeyError(found.error)
      return
    }
    const exp = r.expectedOfRules()
    const { key } = found
    void verify({ ...(key ? { key } : {}), rules: r.rules, ...(Object.keys(exp).length ? { expected: exp } : {}) })
  }

  return (
    <section className="card">
      <TokenField />
      <KeySourceFieldset k={k} />
      <RulesFields r={r} />
      <div className="actions">
        <button type="button" onClick={run} disabled={!jwt.token.trim() || verifyOp?.busy}>
          Verify
        </button>
      </div>
      {keyError ? (
        <p className="text-fail" role="alert">
          {keyError}
        </p>
      ) : null}
      <ErrorPanel error={verifyOp?.error} title="Not verified" />
      {verified ? <ChecksList checks={verified.checks} label="Verification" /> : null}
    </section>
  )
}

/** Paste any JWT: header and claims decoded, times as dates, signature verified, rules checked. */
export default function JwtDebuggerView() {
  return (
    <div className="view">
      <header className="view-head">
        <h1>JWT debugger</h1>
      </header>
      <div className="grid-2">
        <VerifyCard />
        <DecodedJwt />
      </div>
    </div>
  )
}
