import { useRef, useState } from 'react'
import { byName } from '../../components/choice-field.tsx'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { FileField } from '../../components/file-field.tsx'
import { optionsOf, SelectField } from '../../components/select-field.tsx'
import { TextAreaField, TextField } from '../../components/text-field.tsx'
import { useApp } from '../../store/store.ts'
import { readText } from '../environments/read-file.ts'

/**
 * The certificate the directory issued from a CSR made here, paired with the key that waits for it in
 * the identity (a certificate over another key is refused, KEY_MISMATCH).
 */
export function AttachCertificate() {
  const tpps = useApp((s) => s.tpps)
  const attach = useApp((s) => s.attachCertificate)
  const op = useApp((s) => s.ops['certificates.attach'])
  const generatedFor = useApp((s) => s.generated?.keys.tppId)
  const [tppId, setTppId] = useState('')
  const [role, setRole] = useState<'transport' | 'signing'>('transport')
  const [pem, setPem] = useState('')
  const [kid, setKid] = useState('')
  const [done, setDone] = useState<string>()
  const fileRef = useRef<HTMLInputElement>(null)
  const target = tppId || generatedFor || tpps[0]?.id || ''
  if (!tpps.length) return null
  return (
    <form
      className="card"
      aria-label="Attach an issued certificate"
      onSubmit={async (e) => {
        e.preventDefault()
        setDone(undefined)
        const file = fileRef.current?.files?.[0]
        const certificatePem = file ? await readText(file) : pem
        if (!certificatePem.trim()) return
        const tpp = await attach({ tppId: target, role, certificatePem, ...(kid.trim() ? { kid: kid.trim() } : {}) })
        if (tpp) {
          setDone(`The ${role} certificate is attached to ${tpp.name}.`)
          setPem('')
          if (fileRef.current) fileRef.current.value = ''
        }
      }}
    >
      <h2>Attach the certificate the directory issued</h2>
      <div className="grid-3">
        <SelectField label="Identity" value={target} options={byName(tpps)} onChange={setTppId} />
        <SelectField
          label="Certificate role"
          value={role}
          options={optionsOf({ transport: 'Transport', signing: 'Signing' })}
          onChange={setRole}
        />
        <TextField
          label="kid (signing)"
          hint="The directory's kid for the signing key."
          value={kid}
          disabled={role !== 'signing'}
          onChange={setKid}
        />
      </div>
      <TextAreaField label="Issued certificate (PEM)" rows={3} value={pem} onChange={setPem} spellCheck={false} />
      <FileField label="or its file" ref={fileRef} accept=".pem,.crt,.cer" />
      <div className="actions">
        <button type="submit" disabled={op?.busy}>
          Attach
        </button>
        {done ? (
          <span className="text-pass" role="status">
            {done}
          </span>
        ) : null}
      </div>
      <ErrorPanel error={op?.error} title="Not attached" />
    </form>
  )
}
