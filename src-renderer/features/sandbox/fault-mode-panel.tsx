/**
 * The local sandbox's fault mode in the flows view: its rules with what each picks, what it does and its
 * counts (`seen`, `hits`, exhausted), read again after each action, after each flow step and on demand;
 * removing one rule, clearing all (after the console's own confirmation), and adding one. Local sandbox only
 * (`sandbox.faults` and its siblings, through the local directory's `/admin/faults`).
 */
import { useEffect } from 'react'
import type { SandboxFaultRuleDto } from '../../../src-main/contract/sandbox-admin.ts'
import { useConfirm } from '../../components/confirm-prompt.tsx'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { useApp } from '../../store/store.ts'
import { FaultRuleForm } from './fault-rule-form.tsx'
import { activeRules, faultWords, matchWords, timesWords } from './fault-rule-words.ts'

/** Steps finished (done or failed) across every flow: a step that ran may have been counted by a rule. */
const finishedSteps = (flows: Record<string, { steps: Array<{ status: string }> }>) =>
  Object.values(flows).reduce(
    (n, f) => n + f.steps.filter((s) => s.status === 'done' || s.status === 'failed').length,
    0,
  )

/** Reads the fault rules when the local sandbox runs, and again whenever a flow step finishes. */
export function useFaultRulesFollowFlows(): void {
  const running = useApp((s) => !!s.info?.localSandbox)
  const finished = useApp((s) => finishedSteps(s.flows))
  const load = useApp((s) => s.loadSandboxFaults)
  useEffect(() => {
    if (running) void load()
  }, [running, finished, load])
}

function RuleRow({ rule }: { rule: SandboxFaultRuleDto }) {
  const remove = useApp((s) => s.removeSandboxFault)
  const busy = useApp((s) => s.ops['sandbox.removeFault']?.busy)
  return (
    <tr aria-label={`Rule ${rule.id}`} data-state={rule.exhausted ? 'exhausted' : 'active'}>
      <td>
        <code>{rule.id}</code>
      </td>
      <td>
        <code>{matchWords(rule)}</code>
      </td>
      <td>
        {faultWords(rule.fault)}, {timesWords(rule)}
      </td>
      <td className="num">{rule.seen}</td>
      <td className="num" aria-label={`Hits of ${rule.id}`}>
        {rule.hits}
      </td>
      <td>
        {rule.exhausted ? <span className="muted">Exhausted</span> : <strong className="text-warn">Active</strong>}
      </td>
      <td>
        <button
          type="button"
          className="secondary small"
          disabled={busy}
          aria-label={`Remove rule ${rule.id}`}
          onClick={() => void remove(rule.id)}
        >
          Remove
        </button>
      </td>
    </tr>
  )
}

/** The rules in the order they are tried, each with what it picks, its counts and its state. */
function RulesTable({ rules }: { rules: readonly SandboxFaultRuleDto[] }) {
  return (
    <table className="table" aria-label="Fault rules">
      <thead>
        <tr>
          <th>Id</th>
          <th>Picks</th>
          <th>Fault</th>
          <th className="num">Seen</th>
          <th className="num">Hits</th>
          <th>State</th>
          <th>
            <span className="sr-only">Remove</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rules.map((r) => (
          <RuleRow key={r.id} rule={r} />
        ))}
      </tbody>
    </table>
  )
}

export function FaultModePanel() {
  const rules = useApp((s) => s.sandboxFaults)
  const load = useApp((s) => s.loadSandboxFaults)
  const clear = useApp((s) => s.clearSandboxFaults)
  const ops = useApp((s) => s.ops)
  const [ask, prompt] = useConfirm()
  useEffect(() => {
    void load()
  }, [load])
  const active = activeRules(rules)
  const readOp = ops['sandbox.faults']
  const onClear = async () => {
    const n = rules?.length ?? 0
    const yes = await ask({
      label: 'Confirm clearing every fault rule',
      message: `Remove all ${n} fault rule${n === 1 ? '' : 's'}? The local sandbox then answers as a healthy bank again.`,
      confirmLabel: 'Clear all rules',
      danger: true,
    })
    if (yes) await clear()
  }
  return (
    <section className="card" aria-label="Fault mode">
      <div className="flow-head">
        <h2>Fault mode</h2>
        <div className="actions">
          <button type="button" className="secondary small" disabled={readOp?.busy} onClick={() => void load()}>
            {readOp?.busy ? 'Refreshing…' : 'Refresh'}
          </button>
          <button
            type="button"
            className="secondary small"
            disabled={!rules?.length || ops['sandbox.clearFaults']?.busy}
            onClick={() => void onClear()}
          >
            Clear all
          </button>
        </div>
      </div>
      {prompt}
      {rules ? (
        <p aria-label="Fault mode state" className={active.length ? 'text-warn' : 'muted'}>
          {active.length
            ? `On: ${active.length} of ${rules.length} rule${rules.length === 1 ? '' : 's'} active. The local sandbox answers the requests they pick as a failing bank would, in every flow.`
            : rules.length
              ? `Off: every rule is exhausted. The local sandbox answers as a healthy bank.`
              : 'Off: no rule. The local sandbox answers as a healthy bank.'}
        </p>
      ) : null}
      {rules?.length ? <RulesTable rules={rules} /> : null}
      <ErrorPanel error={readOp?.error} title="The fault rules" />
      <ErrorPanel error={ops['sandbox.removeFault']?.error} title="The rule was not removed" />
      <ErrorPanel error={ops['sandbox.clearFaults']?.error} title="The rules were not cleared" />
      <FaultRuleForm />
      <p className="muted small">
        Rules are tried in order; the first active rule that matches a request counts it (seen) and faults it (hits).
        The same rules: <code>GET|POST|DELETE /admin/faults</code> on the sandbox's directory, or{' '}
        <code>ob-console sandbox --faults FILE</code>.
      </p>
    </section>
  )
}

/** Says plainly, above the flows, that fault mode is on: every flow's requests may be faulted on purpose. */
export function FaultModeBanner({ onShow }: { onShow?: () => void }) {
  const rules = useApp((s) => s.sandboxFaults)
  const active = activeRules(rules)
  if (!active.length) return null
  return (
    <div className="fault-mode-on">
      <p role="status">
        <strong>Fault mode is on</strong>: {active.length} rule{active.length === 1 ? '' : 's'} of the local sandbox
        active ({active.map((r) => r.id).join(', ')}). Requests they pick fail, slow down or lose their answer on
        purpose, in every flow on the local sandbox.
      </p>
      {onShow ? (
        <button type="button" className="secondary small" onClick={onShow}>
          Show fault rules
        </button>
      ) : null}
    </div>
  )
}
