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

/** The request's fields: the identity, the subject, the key type, the roles, the certificate, the kid. */
function useKeyRequest() {
  const tpps = useApp((s) => s.tpps)
  const [tppId, setTppId] = useState(NEW)
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
  /** Chooses the identity, filling in its organisation and software ids when it has them. */
  const pick = (id: string) => {
    setTppId(id)
    const t = tpps.find((x) => x.id === id)
    if (t?.orgId) setOrgId(t.orgId)
    if (t?.softwareId) setSoftwareId(t.softwareId)
  }
  return {
    tpps,
    tpp: tpps.find((t) => t.id === tppId),
    tppId,
    pick,
    tppName,
    setTppName,
    orgId,
    setOrgId,
    softwareId,
    setSoftwareId,
    organisation,
    setOrganisation,
    country,
    setCountry,
    keyType,
    setKeyType,
    transport,
    setTransport,
    signing,
    setSigning,
    selfSigned,
    setSelfSigned,
    days,
    setDays,
    kid,
    setKid,
  }
}

type KeyRequest = ReturnType<typeof useKeyRequest>

/** The roles asked for (transport, signing). */
function rolesOf(f: KeyRequest): GenerateKeysInput['roles'] {
  return [...(f.transport ? ['transport' as const] : []), ...(f.signing ? ['signing' as const] : [])]
}

/**
 * The keys the identity has that the request replaces at once: a self-signed transport certificate and a
 * signing key take the identity's place; a CSR-only transport key waits for its certificate beside the current one.
 */
function replacedKeys(f: KeyRequest): string[] {
  return [
    f.transport && f.selfSigned && f.tpp?.transport ? 'transport' : '',
    f.signing && f.tpp?.signing ? 'signing' : '',
  ].filter(Boolean)
}

/** The generate call's input; defaults (organisation, country) and fields that do not apply are left out. */
function generateInput(f: KeyRequest): GenerateKeysInput {
  const { tppId, tppName, organisation, country, kid } = f
  return {
    orgId: f.orgId,
    softwareId: f.softwareId,
    keyType: f.keyType,
    roles: rolesOf(f),
    ...(tppId ? { tppId } : tppName.trim() ? { tppName: tppName.trim() } : {}),
    ...(organisation.trim() && organisation.trim() !== 'OpenBanking' ? { organisation: organisation.trim() } : {}),
    ...(country.trim() && country.trim() !== 'GB' ? { country: country.trim() } : {}),
    ...(f.selfSigned && f.transport ? { selfSigned: true, validDays: Number(f.days) } : {}),
    ...(kid.trim() && f.signing ? { kid: kid.trim() } : {}),
  }
}

/** A labelled checkbox. */
function Checkbox({
  label,
  checked,
  set,
  disabled = false,
}: {
  label: string
  checked: boolean
  set: (v: boolean) => void
  disabled?: boolean
}) {
  return (
    <label className="checkbox">
      <input type="checkbox" checked={checked} disabled={disabled} onChange={(e) => set(e.target.checked)} /> {label}
    </label>
  )
}

type TextOptions = { hint?: string; message?: string; required?: boolean; maxLength?: number }

/** A text field of the request, marked invalid while it has a message. */
function Text({
  label,
  value,
  set,
  opts = {},
}: {
  label: string
  value: string
  set: (v: string) => void
  opts?: TextOptions
}) {
  return (
    <TextField
      label={label}
      className={opts.message ? 'invalid' : undefined}
      value={value}
      spellCheck={false}
      onChange={set}
      {...opts}
    />
  )
}

/** The identity, the certificate subject, the key type and the signing kid. */
function SubjectFields({ f, ecSigning }: { f: KeyRequest; ecSigning: boolean }) {
  const orgBad = f.orgId !== '' && !ORG_ID.test(f.orgId)
  const swBad = f.softwareId !== '' && !SOFTWARE_ID.test(f.softwareId)
  return (
    <div className="grid-2">
      <SelectField
        label="Into identity"
        value={f.tppId}
        options={[{ value: NEW, label: 'A new identity' }, ...byName(f.tpps)]}
        onChange={f.pick}
      />
      {!f.tppId ? (
        <Text
          label="New identity name"
          value={f.tppName}
          set={f.setTppName}
          opts={{ hint: 'Default: Generated <software id>.' }}
        />
      ) : (
        <div />
      )}
      <Text
        label="Organisation id (OU)"
        value={f.orgId}
        set={(v) => f.setOrgId(v.trim())}
        opts={{ required: true, ...(orgBad ? { message: ORG_ID_MESSAGE } : {}) }}
      />
      <Text
        label="Software id (CN)"
        value={f.softwareId}
        set={(v) => f.setSoftwareId(v.trim())}
        opts={{ required: true, ...(swBad ? { message: SOFTWARE_ID_MESSAGE } : {}) }}
      />
      <Text label="Organisation (O)" value={f.organisation} set={f.setOrganisation} />
      <Text label="Country (C)" value={f.country} set={(v) => f.setCountry(v.toUpperCase())} opts={{ maxLength: 2 }} />
      <SelectField
        label="Key type"
        message={ecSigning ? EC_SIGNING_MESSAGE : undefined}
        value={f.keyType}
        options={GENERATED_KEY_TYPES.map((k) => ({
          value: k,
          label: k.replace('-', ' ').replace('EC P256', 'EC P-256'),
        }))}
        onChange={f.setKeyType}
      />
      {f.signing ? (
        <Text
          label="Signing kid"
          value={f.kid}
          set={f.setKid}
          opts={{ hint: "The directory's kid when it gave one; default the key's thumbprint." }}
        />
      ) : (
        <div />
      )}
    </div>
  )
}

/** The keys to make, and a self-signed transport certificate with its validity. */
function KeyRoles({ f }: { f: KeyRequest }) {
  return (
    <fieldset>
      <legend>Keys</legend>
      <Checkbox label="Transport key and CSR (mutual TLS)" checked={f.transport} set={f.setTransport} />
      <Checkbox label="Signing key and CSR (PS256)" checked={f.signing} set={f.setSigning} />
      <Checkbox
        label="A self-signed transport certificate too, for the bank's sandbox"
        checked={f.selfSigned && f.transport}
        set={f.setSelfSigned}
        disabled={!f.transport}
      />
      {f.selfSigned && f.transport ? (
        <TextField label="Valid for (days)" type="number" min={1} max={3650} value={f.days} onChange={f.setDays} />
      ) : null}
    </fieldset>
  )
}

/** The request, a confirmation before replacing an identity's keys, and the generate call. */
function GenerateForm() {
  const [ask, prompt] = useConfirm()
  const generate = useApp((s) => s.generateKeys)
  const op = useApp((s) => s.ops['certificates.generate'])
  const f = useKeyRequest()
  const ecSigning = f.signing && f.keyType === 'EC-P256'
  const ready = ORG_ID.test(f.orgId) && SOFTWARE_ID.test(f.softwareId) && rolesOf(f).length > 0 && !ecSigning
  const replaces = replacedKeys(f)

  const submit = async () => {
    if (!ready) return
    if (
      replaces.length &&
      !(await ask({
        label: 'Confirm replacing keys',
        message: `"${f.tpp!.name}" has a ${replaces.join(' and a ')} key already. Replace it with the new one?`,
        confirmLabel: 'Replace it',
        danger: true,
      }))
    )
      return
    void generate(generateInput(f))
  }

  return (
    <form
      className="card"
      aria-label="Generate keys and CSRs"
      onSubmit={(e) => {
        e.preventDefault()
        void submit()
      }}
    >
      <p className="muted small">
        The private keys are made and kept on the console's main side, encrypted in the identity; they are never shown,
        downloaded or exported. You get the CSRs to upload to the directory, a self-signed certificate if asked, and the
        public JWKS.
      </p>
      <SubjectFields f={f} ecSigning={ecSigning} />
      <KeyRoles f={f} />
      {replaces.length ? (
        <p className="text-warn small" role="note">
          {f.tpp!.name} has a {replaces.join(' and a ')} key already: the new one replaces it.
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
  )
}

/**
 * Generates transport and signing key pairs and CSRs with the Open Banking subject (`C`, `O`, `OU` =
 * organisation id, `CN` = software id), optionally a self-signed transport certificate for the bank's
 * sandbox. The private keys go straight into the identity in the encrypted store; only the public parts
 * come back, to download (CSR, certificate, JWKS).
 */
export function KeysView() {
  return (
    <div className="view">
      <header className="view-head">
        <h1>Keys and certificates</h1>
      </header>
      <GenerateForm />
      <GeneratedParts />
      <AttachCertificate />
    </div>
  )
}
