import { useState } from 'react'
import type { JwtVerifyInput } from '../../../src-main/contract/api.ts'
import { ChecksList } from '../../components/checks-list.tsx'
import { byName, ChoiceField } from '../../components/choice-field.tsx'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { KeyValue } from '../../components/key-value.tsx'
import { optionsOf, SelectField } from '../../components/select-field.tsx'
import { TextAreaField, TextField } from '../../components/text-field.tsx'
import { Code } from '../../editor/lazy.tsx'
import { formatDate, toJson } from '../../lib/format.ts'
import { useApp } from '../../store/store.ts'

type KeySource = 'none' | 'pem' | 'jwk' | 'jwksUrl' | 'environment' | 'tpp'
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

/** Paste any JWT: header and claims decoded, times as dates, signature verified, rules checked. */
export default function JwtDebuggerView() {
  const jwt = useApp((s) => s.jwt)
  const setToken = useApp((s) => s.setJwtToken)
  const verify = useApp((s) => s.verifyJwt)
  const decodeOp = useApp((s) => s.ops['jwt.decode'])
  const verifyOp = useApp((s) => s.ops['jwt.verify'])
  const environments = useApp((s) => s.environments)
  const tpps = useApp((s) => s.tpps)
  const [source, setSource] = useState<KeySource>('none')
  const [keyText, setKeyText] = useState('')
  const [jwksUrl, setJwksUrl] = useState('')
  const [environmentId, setEnvironmentId] = useState(environments[0]?.id ?? '')
  const [tppId, setTppId] = useState(tpps.find((t) => t.signing)?.id ?? '')
  const [rules, setRules] = useState<Rules>('none')
  const [expected, setExpected] = useState<Record<string, string>>({})
  const [keyError, setKeyError] = useState<string>()

  const decoded = jwt.decoded
  const verified = jwt.verified?.token === jwt.token.trim() ? jwt.verified : undefined

  const run = () => {
    setKeyError(undefined)
    let key: JwtVerifyInput['key']
    if (source === 'pem') key = { pem: keyText }
    else if (source === 'tpp') {
      if (!tpps.find((t) => t.id === tppId)?.signing) {
        setKeyError('This identity has no signing key.')
        return
      }
      key = { tppId }
    } else if (source === 'jwk') {
      let jwk: unknown
      try {
        jwk = JSON.parse(keyText)
      } catch (err) {
        setKeyError(`The JWK is not JSON (${(err as Error).message}).`)
        return
      }
      if (!jwk || typeof jwk !== 'object') {
        setKeyError('The JWK must be a JSON object.')
        return
      }
      key = { jwk: jwk as Record<string, unknown> }
    } else if (source === 'jwksUrl') key = { jwksUrl }
    else if (source === 'environment') key = { environmentId }
    const exp = Object.fromEntries(Object.entries(expected).filter(([k, v]) => v && EXPECTED[rules].includes(k)))
    void verify({ ...(key ? { key } : {}), rules, ...(Object.keys(exp).length ? { expected: exp } : {}) })
  }

  return (
    <div className="view">
      <header className="view-head">
        <h1>JWT debugger</h1>
      </header>
      <div className="grid-2">
        <section className="card">
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
          {decoded?.error ? (
            <p className="text-fail" role="alert">
              {decoded.error}
            </p>
          ) : null}
          <fieldset>
            <legend>Verify the signature with</legend>
            <div className="radio-row">
              {(
                [
                  ['none', 'No key (decode only)'],
                  ['pem', 'PEM public key or certificate'],
                  ['jwk', 'JWK'],
                  ['jwksUrl', 'JWKS URL'],
                  ['environment', "An environment's JWKS"],
                  ['tpp', "A TPP identity's signing key"],
                ] as Array<[KeySource, string]>
              ).map(([v, l]) => (
                <label key={v} className="checkbox">
                  <input
                    type="radio"
                    name="key-source"
                    value={v}
                    checked={source === v}
                    onChange={() => setSource(v)}
                  />{' '}
                  {l}
                </label>
              ))}
            </div>
            {source === 'pem' || source === 'jwk' ? (
              <TextAreaField
                label={source === 'pem' ? 'Public key PEM' : 'Public JWK (JSON)'}
                rows={4}
                value={keyText}
                onChange={setKeyText}
                spellCheck={false}
                className="mono"
              />
            ) : null}
            {source === 'jwksUrl' ? (
              <TextField label="JWKS URL" value={jwksUrl} onChange={setJwksUrl} placeholder="https://…/jwks" />
            ) : null}
            {source === 'environment' ? (
              <ChoiceField
                label="Environment"
                value={environmentId}
                choices={byName(environments)}
                onChange={setEnvironmentId}
              />
            ) : null}
            {source === 'tpp' ? (
              <ChoiceField
                label="TPP identity"
                value={tppId}
                choices={tpps.flatMap((t) =>
                  t.signing ? [{ value: t.id, label: `${t.name} (kid ${t.signing.kid})` }] : [],
                )}
                onChange={setTppId}
              />
            ) : null}
          </fieldset>
          <SelectField label="Rules" value={rules} options={RULES} onChange={setRules} />
          {EXPECTED[rules].length ? (
            <div className="grid-2">
              {EXPECTED[rules].map((k) => (
                <TextField
                  key={k}
                  label={EXPECTED_LABELS[k] ?? k}
                  value={expected[k] ?? ''}
                  onChange={(value) => setExpected({ ...expected, [k]: value })}
                />
              ))}
            </div>
          ) : null}
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
      </div>
    </div>
  )
}
