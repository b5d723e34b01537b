import { useState } from 'react'
import {
  GENERATED_KEY_TYPES,
  type GenerateKeysInput,
  type GeneratedKeyTypeName,
} from '../../../src-main/contract/tpp-tools.ts'
import { Busy } from '../../components/busy.tsx'
import { byName } from '../../components/choice-field.tsx'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { SelectField } from '../../components/select-field.tsx'
import { TextField } from '../../components/text-field.tsx'
import { useApp } from '../../store/store.ts'
import { AttachCertificate } from './attach-certificate.tsx'
import { GeneratedParts } from './generated-parts.tsx'
import { useConfirm } from '../../components/confirm-prompt.tsx'

const NEW = ''
/** The directory's formats, checked as typed (the main side checks them again). */
const ORG_ID = /^[A-Za-z0-9]{15,18}$/
const SOFTWARE_ID = /^[A-Za-z0-9]{1,22}$/
const ORG_ID_MESSAGE = '15 to 18 letters and digits, as the directory shows it (e.g. 0015800001041RHAAY).'
const SOFTWARE_ID_MESSAGE = "Up to 22 letters and digits: the software statement's id."
const EC_SIGNING_MESSAGE =
  'The signing key must be RSA (PS256): choose RSA, or generate the transport key alone with EC P-256.'

/**
 * Generates transport and signing key pairs and CSRs with the Open Banking subject (`C`, `O`, `OU` =
 * organisation id, `CN` = software id), optionally a self-signed transport certificate for the bank's
 * sandbox. The private keys go straight into the identity in the encrypted store; only the public parts
 * come back, to download (CSR, certificate, JWKS).
 */
export function KeysView() {
  const [ask, prompt] = useConfirm()
  const tpps = useApp((s) => s.tpps)
  const generate = useApp((s) => s.generateKeys)
  const op = useApp((s) => s.ops['certificates.generate'])
  const [tppId, setTppId] = useState(NEW)
  const tpp = tpps.find((t) => t.id === tppId)
  const [tppName, setTppName] = useState('')
  const [orgId, setOrgId] = useState('')
  const [softwareId, setSoftwareId] = useState('')
  const [organisation, setOrganisation] = useState('OpenBanking')
  const [country, setCountry] = useState('GB')
  const [keyType, setKeyType] = useState<GeneratedKeyTypeName>('RSA-2048')
  const [transport, setTransport] = useState(true)
  const [signing, setSigning] = useState(true)
  const [selfSigned, setSelfSigned] = useState(false)
  const [days, setDays] = useState('365')
  const [kid, setKid] = useState('')
  const pick = (id: string) => {
    setTppId(id)
    const t = tpps.find((x) => x.id === id)
    if (t?.orgId) setOrgId(t.orgId)
    if (t?.softwareId) setSoftwareId(t.softwareId)
  }
  const orgBad = orgId !== '' && !ORG_ID.test(orgId)
  const swBad = softwareId !== '' && !SOFTWARE_ID.test(softwareId)
  const ecSigning = signing && keyType === 'EC-P256'
  const roles: GenerateKeysInput['roles'] = [
    ...(transport ? ['transport' as const] : []),
    ...(signing ? ['signing' as const] : []),
  ]
  const ready = ORG_ID.test(orgId) && SOFTWARE_ID.test(softwareId) && roles.length > 0 && !ecSigning
  // A self-signed transport certificate and a signing key take the identity's place at once; a CSR-only
  // transport key waits for its certificate beside the current one.
  const replaces = [
    transport && selfSigned && tpp?.transport ? 'transport' : '',
    signing && tpp?.signing ? 'signing' : '',
  ].filter(Boolean)

  const submit = async () => {
    if (!ready) return
    if (
      replaces.length &&
      !(await ask({
        label: 'Confirm replacing keys',
        message: `"${tpp!.name}" has a ${replaces.join(' and a ')} key already. Replace it with the new one?`,
        confirmLabel: 'Replace it',
        danger: true,
      }))
    )
      return
    void generate({
      orgId,
      softwareId,
      keyType,
      roles,
      ...(tppId ? { tppId } : tppName.trim() ? { tppName: tppName.trim() } : {}),
      ...(organisation.trim() && organisation.trim() !== 'OpenBanking' ? { organisation: organisation.trim() } : {}),
      ...(country.trim() && country.trim() !== 'GB' ? { country: country.trim() } : {}),
      ...(selfSigned && transport ? { selfSigned: true, validDays: Number(days) } : {}),
      ...(kid.trim() && signing ? { kid: kid.trim() } : {}),
    })
  }

  const checkbox = (label: string, checked: boolean, set: (v: boolean) => void, disabled = false) => (
    <label className="checkbox">
      <input type="checkbox" checked={checked} disabled={disabled} onChange={(e) => set(e.target.checked)} /> {label}
    </label>
  )
  type TextOptions = { hint?: string; message?: string; required?: boolean; maxLength?: number }
  const text = (label: string, value: string, set: (v: string) => void, opts: TextOptions = {}) => (
    <TextField
      label={label}
      className={opts.message ? 'invalid' : undefined}
      value={value}
      spellCheck={false}
      onChange={set}
      {...opts}
    />
  )

  return (
    <div className="view">
      <header className="view-head">
        <h1>Keys and certificates</h1>
      </header>
      <form
        className="card"
        aria-label="Generate keys and CSRs"
        onSubmit={(e) => {
          e.preventDefault()
          void submit()
        }}
      >
        <p className="muted small">
          The private keys are made and kept on the console's main side, encrypted in the identity; they are never
          shown, downloaded or exported. You get the CSRs to upload to the directory, a self-signed certificate if
          asked, and the public JWKS.
        </p>
        <div className="grid-2">
          <SelectField
            label="Into identity"
            value={tppId}
            options={[{ value: NEW, label: 'A new identity' }, ...byName(tpps)]}
            onChange={pick}
          />
          {!tppId ? (
            text('New identity name', tppName, setTppName, { hint: 'Default: Generated <software id>.' })
          ) : (
            <div />
          )}
          {text('Organisation id (OU)', orgId, (v) => setOrgId(v.trim()), {
            required: true,
            ...(orgBad ? { message: ORG_ID_MESSAGE } : {}),
          })}
          {text('Software id (CN)', softwareId, (v) => setSoftwareId(v.trim()), {
            required: true,
            ...(swBad ? { message: SOFTWARE_ID_MESSAGE } : {}),
          })}
          {text('Organisation (O)', organisation, setOrganisation)}
          {text('Country (C)', country, (v) => setCountry(v.toUpperCase()), { maxLength: 2 })}
          <SelectField
            label="Key type"
            message={ecSigning ? EC_SIGNING_MESSAGE : undefined}
            value={keyType}
            options={GENERATED_KEY_TYPES.map((k) => ({
              value: k,
              label: k.replace('-', ' ').replace('EC P256', 'EC P-256'),
            }))}
            onChange={setKeyType}
          />
          {signing ? (
            text('Signing kid', kid, setKid, {
              hint: "The directory's kid when it gave one; default the key's thumbprint.",
            })
          ) : (
            <div />
          )}
        </div>
        <fieldset>
          <legend>Keys</legend>
          {checkbox('Transport key and CSR (mutual TLS)', transport, setTransport)}
          {checkbox('Signing key and CSR (PS256)', signing, setSigning)}
          {checkbox(
            "A self-signed transport certificate too, for the bank's sandbox",
            selfSigned && transport,
            setSelfSigned,
            !transport,
          )}
          {selfSigned && transport ? (
            <TextField label="Valid for (days)" type="number" min={1} max={3650} value={days} onChange={setDays} />
          ) : null}
        </fieldset>
        {replaces.length ? (
          <p className="text-warn small" role="note">
            {tpp!.name} has a {replaces.join(' and a ')} key already: the new one replaces it.
          </p>
        ) : null}
        <div className="actions">
          <button type="submit" disabled={!ready || op?.busy}>
            Generate
          </button>
          {op?.busy ? <Busy label="Generating keys…" /> : null}
        </div>
        {prompt}
        <ErrorPanel error={op?.error} title="Not generated" />
      </form>
      <GeneratedParts />
      <AttachCertificate />
    </div>
  )
}
