import { AIS_PERMISSIONS, checkPermissions } from '../../../src-main/contract/ais-permissions.ts'

/** The 21 v4.0 permissions grouped, each a labelled checkbox, with the v4.0 rules checked as you pick. */
export function PermissionsPicker({ value, onChange }: { value: string[]; onChange: (next: string[]) => void }) {
  const groups = [...new Set(AIS_PERMISSIONS.map((p) => p.group))]
  const rules = checkPermissions(value)
  const toggle = (code: string, on: boolean) => onChange(on ? [...value, code] : value.filter((c) => c !== code))
  return (
    <fieldset className="permissions">
      <legend>
        Permissions ({value.length} of {AIS_PERMISSIONS.length})
      </legend>
      <div className="permission-groups">
        {groups.map((g) => (
          <div key={g} className="permission-group" role="group" aria-label={g}>
            <div className="permission-group-name">{g}</div>
            {AIS_PERMISSIONS.filter((p) => p.group === g).map((p) => (
              <label key={p.code} className="checkbox" title={p.description}>
                <input
                  type="checkbox"
                  checked={value.includes(p.code)}
                  onChange={(e) => toggle(p.code, e.target.checked)}
                />
                <span>
                  <code>{p.code}</code>
                  <span className="muted small"> {p.description}</span>
                </span>
              </label>
            ))}
          </div>
        ))}
      </div>
      <ul className="rules" aria-label="Permission rules">
        {rules.map((r) => (
          <li key={r.name} className={r.pass ? 'text-pass' : 'text-fail'} data-pass={r.pass}>
            <span aria-hidden="true">{r.pass ? '✓ ' : '✗ '}</span>
            {r.name}
            {r.pass ? '' : ` — ${r.hint}`}
          </li>
        ))}
      </ul>
      <p className="muted small">
        Basic and Detail are alternatives (Detail adds identifiers, narrative or counterparties); transactions need a
        kind (Basic or Detail) and a direction (Credits and/or Debits).
      </p>
    </fieldset>
  )
}
