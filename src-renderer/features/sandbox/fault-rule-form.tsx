/**
 * Adds a fault rule to the local sandbox: a small form for the common kinds, or a JSON box for any rule the
 * sandbox takes. Nothing is checked here: the sandbox checks the rule, and a refused one shows its error
 * (what, cause, fix; the field it names marked in the form) with everything the user typed kept.
 */
import { useState } from 'react'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { optionsOf, SelectField } from '../../components/select-field.tsx'
import { TextAreaField, TextField } from '../../components/text-field.tsx'
import { useApp } from '../../store/store.ts'
import {
  EMPTY_FAULT_FORM,
  FORM_KINDS,
  formFieldOf,
  ORIGINS,
  ruleFromForm,
  type FaultForm,
  type FormFaultKind,
} from './fault-rule-words.ts'

const METHODS = [
  { value: '', label: 'Any method' },
  ...['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].map((m) => ({ value: m, label: m })),
]

/** Marks the field the sandbox named as wrong: its message and aria-invalid. */
type Mark = (field: keyof FaultForm) => { message?: string; 'aria-invalid'?: true }

/** The form of the common kinds: the fault, its origin, the request it matches, how many times, its id. */
function FaultFormFields({
  form,
  set,
  mark,
}: {
  form: FaultForm
  set: (patch: Partial<FaultForm>) => void
  mark: Mark
}) {
  const handshake = form.kind === 'tls-handshake'
  return (
    <div className="fault-form-fields">
      <SelectField<FormFaultKind>
        label="Fault"
        value={form.kind}
        options={optionsOf(FORM_KINDS)}
        onChange={(kind) => set({ kind })}
      />
      {form.kind === 'latency' ? (
        <TextField
          label="Delay (ms)"
          inputMode="numeric"
          value={form.ms}
          onChange={(ms) => set({ ms })}
          {...mark('ms')}
        />
      ) : null}
      {form.kind === 'status' ? (
        <TextField
          label="Status code"
          inputMode="numeric"
          value={form.status}
          onChange={(status) => set({ status })}
          {...mark('status')}
        />
      ) : null}
      <SelectField<FaultForm['origin']>
        label="Origin"
        value={form.origin}
        options={optionsOf(ORIGINS)}
        onChange={(origin) => set({ origin })}
        {...mark('origin')}
      />
      {handshake ? null : (
        <>
          <SelectField label="Method" value={form.method} options={METHODS} onChange={(method) => set({ method })} />
          <TextField
            label="Path"
            hint={'A glob: "*" within one segment, "**" across segments; empty: every path.'}
            value={form.path}
            onChange={(path) => set({ path })}
            {...mark('path')}
          />
        </>
      )}
      <TextField
        label="Times (optional)"
        hint={
          handshake
            ? 'Connections to refuse; empty: every one.'
            : 'Requests to fault; empty: every one. The console tries a GET answered 5xx or 429, or cut off, up to 3 times by default: fewer faults than that are absorbed by its retries.'
        }
        inputMode="numeric"
        value={form.times}
        onChange={(times) => set({ times })}
        {...mark('times')}
      />
      <TextField
        label="Rule id (optional)"
        hint="Empty: the sandbox names it (f1, f2…)."
        value={form.id}
        onChange={(id) => set({ id })}
        {...mark('id')}
      />
    </div>
  )
}

const MODES = [
  ['form', 'With the form (common kinds)'],
  ['json', 'As JSON (any rule)'],
] as const

/** How the rule is written: with the form, or as JSON. */
function ModeChoice({ mode, choose }: { mode: 'form' | 'json'; choose: (mode: 'form' | 'json') => void }) {
  return (
    <fieldset>
      <legend>Write the rule</legend>
      <div className="radio-row">
        {MODES.map(([v, l]) => (
          <label key={v} className="checkbox">
            <input type="radio" name="fault-rule-mode" value={v} checked={mode === v} onChange={() => choose(v)} /> {l}
          </label>
        ))}
      </div>
    </fieldset>
  )
}

export function FaultRuleForm() {
  const add = useApp((s) => s.addSandboxFault)
  const op = useApp((s) => s.ops['sandbox.addFault'])
  const [mode, setMode] = useState<'form' | 'json'>('form')
  const [form, setForm] = useState<FaultForm>(EMPTY_FAULT_FORM)
  const [json, setJson] = useState('')
  const [sentFrom, setSentFrom] = useState<'form' | 'json'>()
  const set = (patch: Partial<FaultForm>) => setForm((f) => ({ ...f, ...patch }))
  const wrong = op?.error && sentFrom === 'form' ? formFieldOf(op.error.details?.field) : undefined
  const mark: Mark = (field) => (wrong === field ? { message: op?.error?.cause, 'aria-invalid': true as const } : {})
  /** Switching to JSON starts from the rule the form makes, unless JSON is already written. */
  const choose = (v: 'form' | 'json') => {
    setMode(v)
    if (v === 'json' && !json.trim()) setJson(JSON.stringify(ruleFromForm(form), null, 2))
  }
  const submit = async () => {
    setSentFrom(mode)
    const added = await add(mode === 'form' ? { rule: ruleFromForm(form) } : { json })
    if (added && mode === 'form') set({ id: '' })
  }
  return (
    <form
      className="fault-form"
      aria-label="Add a fault rule"
      onSubmit={(e) => {
        e.preventDefault()
        void submit()
      }}
    >
      <h3>Add a rule</h3>
      <ModeChoice mode={mode} choose={choose} />
      {mode === 'form' ? (
        <FaultFormFields form={form} set={set} mark={mark} />
      ) : (
        <TextAreaField
          label="Rule (JSON)"
          className="mono"
          rows={8}
          spellCheck={false}
          hint='Any rule of docs/local-sandbox.md, "Fault mode": e.g. {"path": "/token", "times": 1, "fault": {"kind": "html-error", "status": 502}}.'
          value={json}
          onChange={setJson}
          aria-invalid={op?.error && sentFrom === 'json' ? true : undefined}
        />
      )}
      <div className="actions">
        <button type="submit" disabled={op?.busy}>
          {op?.busy ? 'Adding…' : 'Add rule'}
        </button>
      </div>
      <ErrorPanel error={op?.error} title="The rule was not added" />
    </form>
  )
}
