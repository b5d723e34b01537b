/**
 * Fault rules in words for the Fault mode panel, and the rule its small form builds. The form checks
 * nothing: what the user typed goes to the sandbox as typed (a number when it reads as one), and the
 * sandbox's own validation says what is wrong.
 */
import type { SandboxFaultDto, SandboxFaultRuleDto } from '../../../src-main/contract/sandbox-admin.ts'

/** The kinds the small form writes; any other rule is written in the JSON box. */
export type FormFaultKind = 'latency' | 'status' | 'lost-response' | 'tls-handshake'

export const FORM_KINDS: Readonly<Record<FormFaultKind, string>> = {
  latency: 'Latency (a slow answer)',
  status: 'HTTP error status',
  'lost-response': 'Lost response (the bank acts, the answer is lost)',
  'tls-handshake': 'TLS handshake refused',
}

export const ORIGINS = {
  any: 'Any origin',
  base: 'base (resource API)',
  auth: 'auth (authorisation server)',
  directory: 'directory',
} as const

export interface FaultForm {
  kind: FormFaultKind
  ms: string
  status: string
  origin: keyof typeof ORIGINS
  /** Empty: any method. */
  method: string
  path: string
  times: string
  id: string
}

export const EMPTY_FAULT_FORM: FaultForm = {
  kind: 'status',
  ms: '1500',
  status: '503',
  origin: 'base',
  method: 'GET',
  path: '/open-banking/v4.0/aisp/accounts',
  times: '1',
  id: '',
}

/** A number when the text reads as one, else the text as typed, for the sandbox to judge. */
const typed = (text: string): string | number => (/^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text.trim()) : text)

function faultOf(form: FaultForm): Record<string, unknown> {
  if (form.kind === 'latency') return { kind: 'latency', ms: typed(form.ms) }
  if (form.kind === 'status') return { kind: 'status', status: typed(form.status) }
  return { kind: form.kind }
}

/** The rule the form describes; empty optional fields are left out (the sandbox's defaults). */
export function ruleFromForm(form: FaultForm): Record<string, unknown> {
  const handshake = form.kind === 'tls-handshake'
  return {
    ...(form.id.trim() ? { id: form.id.trim() } : {}),
    origin: form.origin,
    ...(!handshake && form.method ? { method: form.method } : {}),
    ...(!handshake && form.path.trim() ? { path: form.path.trim() } : {}),
    ...(form.times.trim() ? { times: typed(form.times) } : {}),
    fault: faultOf(form),
  }
}

/** The form field a refused rule's `field` (`rule.fault.ms`) names, if the form has it. */
export function formFieldOf(field: unknown): keyof FaultForm | undefined {
  if (typeof field !== 'string') return undefined
  const name = /^rule\.(?:fault\.)?([A-Za-z]+)$/.exec(field)?.[1]
  const fields: Array<keyof FaultForm> = ['ms', 'status', 'origin', 'method', 'path', 'times', 'id']
  return fields.find((f) => f === name)
}

/** What the fault does, in a few words. */
export function faultWords(fault: SandboxFaultDto): string {
  const n = (k: string) => (typeof fault[k] === 'number' || typeof fault[k] === 'string' ? String(fault[k]) : '')
  switch (fault.kind) {
    case 'latency':
      return `Latency: the answer ${n('ms')} ms late`
    case 'status':
      return `Status ${n('status')} instead of the answer`
    case 'html-error':
      return `Gateway HTML error page (${n('status') || '502'})`
    case 'reset':
      return 'Connection reset, no answer'
    case 'lost-response':
      return 'Lost response: the bank acts, the answer is dropped'
    case 'truncate':
      return `Body cut${n('bytes') ? ` after ${n('bytes')} bytes` : ' in half'}`
    case 'oversize':
      return `Oversized body${n('bytes') ? ` of ${n('bytes')} bytes` : ' (1 GiB)'}`
    case 'mutate':
      return 'JSON answer edited'
    case 'pagination':
      return `Broken pagination (${n('mode')})`
    case 'tls-handshake':
      return 'TLS handshake refused on new connections'
    default:
      return fault.kind
  }
}

/** Which requests the rule picks, in a few words. */
export function matchWords(rule: SandboxFaultRuleDto): string {
  const origin = rule.origin === 'any' ? 'any origin' : rule.origin
  if (rule.fault.kind === 'tls-handshake') return `new connections to ${origin}`
  return `${rule.method ?? 'any method'} ${rule.path} on ${origin}`
}

/** How many it faults: every one, or `times` (after `skip`). */
export function timesWords(rule: SandboxFaultRuleDto): string {
  const unit = rule.fault.kind === 'tls-handshake' ? 'connection' : 'request'
  const skip = rule.skip ? `after letting ${rule.skip} through, ` : ''
  if (rule.times === undefined) return `${skip}every ${unit}`
  return `${skip}${rule.times} ${unit}${rule.times === 1 ? '' : 's'}`
}

/** The rules still in force (not exhausted). */
export function activeRules(rules: readonly SandboxFaultRuleDto[] | undefined): SandboxFaultRuleDto[] {
  return (rules ?? []).filter((r) => !r.exhausted)
}
