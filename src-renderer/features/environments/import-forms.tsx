import { useRef, useState } from 'react'
import type { TppRole } from '../../../src-main/contract/environments.ts'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { Field } from '../../components/field.tsx'
import { FileField } from '../../components/file-field.tsx'
import { optionsOf, SelectField } from '../../components/select-field.tsx'
import { TextAreaField, TextField } from '../../components/text-field.tsx'
import { useApp } from '../../store/store.ts'
import { readBase64, readText } from './read-file.ts'

const ROLE_LABELS: Record<TppRole, string> = {
  transport: 'Transport (mutual TLS)',
  signing: 'Signing (PS256)',
  rootCa: 'Ecosystem root CA',
  issuingCa: 'Ecosystem issuing CA',
}

const NOTHING_CHOSEN = { sent: false, ok: false }

/**
 * The file inputs of an import (certificate, key, PKCS#12, passphrase) and the import of what they hold: the
 * files are read only when `send` runs.
 */
function useMaterialFiles(tppId: string) {
  const importPem = useApp((s) => s.importPem)
  const importPkcs12 = useApp((s) => s.importPkcs12)
  const certRef = useRef<HTMLInputElement>(null)
  const keyRef = useRef<HTMLInputElement>(null)
  const p12Ref = useRef<HTMLInputElement>(null)
  const passRef = useRef<HTMLInputElement>(null)
  /** Imports the chosen files for `role`: nothing is sent while no file is chosen. */
  const importChosen = async (role: TppRole, p12: boolean, kid: string) => {
    const passphrase = passRef.current?.value || undefined
    if (p12) {
      const file = p12Ref.current?.files?.[0]
      if (!file) return NOTHING_CHOSEN
      const tpp = await importPkcs12({
        tppId,
        role: role as 'transport' | 'signing',
        pkcs12Base64: await readBase64(file),
        passphrase: passphrase ?? '',
        ...(kid ? { kid } : {}),
      })
      return { sent: true, ok: !!tpp }
    }
    const cert = certRef.current?.files?.[0]
    const key = keyRef.current?.files?.[0]
    if (!cert && !key) return NOTHING_CHOSEN
    const tpp = await importPem({
      tppId,
      role,
      ...(cert ? { certificatePem: await readText(cert) } : {}),
      ...(key ? { keyPem: await readText(key) } : {}),
      ...(passphrase ? { passphrase } : {}),
      ...(kid ? { kid } : {}),
    })
    return { sent: true, ok: !!tpp }
  }
  /** Whether the import succeeded; the passphrase emptied after each try sent, the files after a success. */
  const send = async (role: TppRole, p12: boolean, kid: string): Promise<boolean> => {
    const { sent, ok } = await importChosen(role, p12, kid)
    if (!sent) return false
    if (passRef.current) passRef.current.value = ''
    if (ok) for (const r of [certRef, keyRef, p12Ref]) if (r.current) r.current.value = ''
    return ok
  }
  return { certRef, keyRef, p12Ref, passRef, send }
}

/** The file fields: a PKCS#12 file, or a certificate and (but for a CA) its key; and the key's passphrase. */
function MaterialFileFields({ f, p12, isCa }: { f: ReturnType<typeof useMaterialFiles>; p12: boolean; isCa: boolean }) {
  return (
    <>
      {p12 ? (
        <FileField label="PKCS#12 file" ref={f.p12Ref} accept=".p12,.pfx" />
      ) : (
        <div className="grid-2">
          <FileField label="Certificate (PEM)" ref={f.certRef} accept=".pem,.crt,.cer" />
          {!isCa ? (
            <FileField
              label="Private key (PEM)"
              hint="Sent to the main side, stored encrypted; the page never keeps it."
              ref={f.keyRef}
              accept=".pem,.key"
            />
          ) : null}
        </div>
      )}
      {!isCa ? (
        <Field label="Passphrase (if the key is encrypted)">
          {(id) => <input id={id} ref={f.passRef} type="password" autoComplete="off" />}
        </Field>
      ) : null}
    </>
  )
}

/**
 * Imports a certificate and key as PEM files or a PKCS#12 file. The files are read only when the user
 * presses Import, handed to the main side in the same call, and never kept in the renderer's state.
 */
export function ImportMaterial({ tppId }: { tppId: string }) {
  const op = useApp((s) => s.ops[`tpps.import:${tppId}`])
  const [role, setRole] = useState<TppRole>('transport')
  const [format, setFormat] = useState<'pem' | 'p12'>('pem')
  const [kid, setKid] = useState('')
  const [done, setDone] = useState<string>()
  const files = useMaterialFiles(tppId)
  const isCa = role === 'rootCa' || role === 'issuingCa'
  const p12 = format === 'p12' && !isCa

  const submit = async () => {
    setDone(undefined)
    if (await files.send(role, p12, kid)) setDone(`${ROLE_LABELS[role]} imported.`)
  }

  return (
    <form
      className="card"
      aria-label="Import certificates and keys"
      onSubmit={(e) => {
        e.preventDefault()
        void submit()
      }}
    >
      <h3>Import certificates and keys</h3>
      <div className="grid-3">
        <SelectField label="Role" value={role} options={optionsOf(ROLE_LABELS)} onChange={setRole} />
        {!isCa ? (
          <SelectField
            label="Format"
            value={format}
            options={optionsOf({ pem: 'PEM files', p12: 'PKCS#12 (.p12 / .pfx)' })}
            onChange={setFormat}
          />
        ) : null}
        {role === 'signing' ? (
          <TextField label="kid" hint="Default: the key's JWK thumbprint." value={kid} onChange={setKid} />
        ) : null}
      </div>
      <MaterialFileFields f={files} p12={p12} isCa={isCa} />
      <div className="actions">
        <button type="submit" disabled={op?.busy}>
          Import
        </button>
        {done ? (
          <span className="text-pass" role="status">
            {done}
          </span>
        ) : null}
      </div>
      <ErrorPanel error={op?.error} title="Import failed" />
    </form>
  )
}

/** Pastes (or loads) the software statement assertion from the directory. */
export function ImportSsa({ tppId }: { tppId: string }) {
  const importSsa = useApp((s) => s.importSoftwareStatement)
  const op = useApp((s) => s.ops[`tpps.importSoftwareStatement:${tppId}`])
  const [ssa, setSsa] = useState('')
  return (
    <form
      className="card"
      aria-label="Import software statement"
      onSubmit={async (e) => {
        e.preventDefault()
        if (await importSsa(tppId, ssa.trim())) setSsa('')
      }}
    >
      <h3>Software statement (SSA)</h3>
      <TextAreaField label="SSA (a JWT from the directory)" rows={3} value={ssa} onChange={setSsa} spellCheck={false} />
      <input
        type="file"
        aria-label="Load the SSA from a file"
        onChange={async (e) => {
          const f = e.target.files?.[0]
          if (f) setSsa((await readText(f)).trim())
        }}
      />
      <div className="actions">
        <button type="submit" disabled={!ssa.trim() || op?.busy}>
          Import SSA
        </button>
      </div>
      <ErrorPanel error={op?.error} title="SSA not imported" />
    </form>
  )
}
