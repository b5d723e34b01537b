import { useState } from 'react'
import type { JwtVerifyInput } from '../../../src-main/contract/api.ts'
import { byName, ChoiceField } from '../../components/choice-field.tsx'
import { TextAreaField, TextField } from '../../components/text-field.tsx'
import { useApp } from '../../store/store.ts'

/** Where the key that verifies the signature comes from. */
export type KeySource = 'none' | 'pem' | 'jwk' | 'jwksUrl' | 'environment' | 'tpp'

const SOURCES: Array<[KeySource, string]> = [
  ['none', 'No key (decode only)'],
  ['pem', 'PEM public key or certificate'],
  ['jwk', 'JWK'],
  ['jwksUrl', 'JWKS URL'],
  ['environment', "An environment's JWKS"],
  ['tpp', "A TPP identity's signing key"],
]

/** The key source chosen and what it needs: the pasted key, the JWKS URL, the environment, the TPP identity. */
export function useKeySource() {
  const environments = useApp((s) => s.environments)
  const tpps = useApp((s) => s.tpps)
  const [source, setSource] = useState<KeySource>('none')
  const [keyText, setKeyText] = useState('')
  const [jwksUrl, setJwksUrl] = useState('')
  const [environmentId, setEnvironmentId] = useState(environments[0]?.id ?? '')
  const [tppId, setTppId] = useState(tpps.find((t) => t.signing)?.id ?? '')
  return {
    environments,
    tpps,
    source,
    setSource,
    keyText,
    setKeyText,
    jwksUrl,
    setJwksUrl,
    environmentId,
    setEnvironmentId,
    tppId,
    setTppId,
  }
}

export type KeySourceState = ReturnType<typeof useKeySource>

/** A pasted JWK as the verify call's key, or why it cannot be one. */
function jwkKey(keyText: string): { key: JwtVerifyInput['key'] } | { error: string } {
  let jwk: unknown
  try {
    jwk = JSON.parse(keyText)
  } catch (err) {
    return { error: `The JWK is not JSON (${(err as Error).message}).` }
  }
  if (!jwk || typeof jwk !== 'object') return { error: 'The JWK must be a JSON object.' }
  return { key: { jwk: jwk as Record<string, unknown> } }
}

/** The verify call's key from the chosen source (none for "decode only"), or why it cannot be had. */
export function verificationKey(k: KeySourceState): { key: JwtVerifyInput['key'] } | { error: string } {
  switch (k.source) {
    case 'pem':
      return { key: { pem: k.keyText } }
    case 'tpp':
      if (!k.tpps.find((t) => t.id === k.tppId)?.signing) return { error: 'This identity has no signing key.' }
      return { key: { tppId: k.tppId } }
    case 'jwk':
      return jwkKey(k.keyText)
    case 'jwksUrl':
      return { key: { jwksUrl: k.jwksUrl } }
    case 'environment':
      return { key: { environmentId: k.environmentId } }
    case 'none':
      return { key: undefined }
  }
}

/** The source's own field: a pasted key, a URL, an environment or a TPP identity. */
function KeySourceInput({ k }: { k: KeySourceState }) {
  switch (k.source) {
    case 'pem':
    case 'jwk':
      return (
        <TextAreaField
          label={k.source === 'pem' ? 'Public key PEM' : 'Public JWK (JSON)'}
          rows={4}
          value={k.keyText}
          onChange={k.setKeyText}
          spellCheck={false}
          className="mono"
        />
      )
    case 'jwksUrl':
      return <TextField label="JWKS URL" value={k.jwksUrl} onChange={k.setJwksUrl} placeholder="https://…/jwks" />
    case 'environment':
      return (
        <ChoiceField
          label="Environment"
          value={k.environmentId}
          choices={byName(k.environments)}
          onChange={k.setEnvironmentId}
        />
      )
    case 'tpp':
      return (
        <ChoiceField
          label="TPP identity"
          value={k.tppId}
          choices={k.tpps.flatMap((t) =>
            t.signing ? [{ value: t.id, label: `${t.name} (kid ${t.signing.kid})` }] : [],
          )}
          onChange={k.setTppId}
        />
      )
    case 'none':
      return null
  }
}

/** "Verify the signature with": the sources as radio buttons, then the chosen source's field. */
export function KeySourceFieldset({ k }: { k: KeySourceState }) {
  return (
    <fieldset>
      <legend>Verify the signature with</legend>
      <div className="radio-row">
        {SOURCES.map(([v, l]) => (
          <label key={v} className="checkbox">
            <input type="radio" name="key-source" value={v} checked={k.source === v} onChange={() => k.setSource(v)} />{' '}
            {l}
          </label>
        ))}
      </div>
      <KeySourceInput k={k} />
    </fieldset>
  )
}
