/**
 * The local sandbox's fault mode, read and changed from the console through its directory's admin endpoint
 * (`GET|POST|DELETE {directory}/admin/faults`, `DELETE /admin/faults/{id}`; docs/local-sandbox.md, "Fault
 * mode"). The sandbox checks every rule itself: a rule it refuses comes back as INVALID_INPUT with its own
 * sentence and the field it names. Local sandbox only: the bank's sandbox and production have no such endpoint.
 */
import type {
  SandboxFaultAdd,
  SandboxFaultDto,
  SandboxFaultOrigin,
  SandboxFaultRuleDto,
  SandboxFaultsDto,
} from '../contract/sandbox-admin.ts'
import { AppError } from '../core/app-error.ts'
import type { FlowResponse } from '../flows/flow-context.ts'
import type { EnvironmentsService } from './environments-service.ts'
import type { HttpEngine } from './ports.ts'
import { localSandboxAdmin, type SandboxAdmin } from './sandbox-admin.ts'
import { jsonObject } from '../http/json-body.ts'

/** The largest rule the console sends (the sandbox takes rule sets up to 256 KiB). */
export const MAX_RULE_CHARS = 64 * 1024
const ID = /^[A-Za-z0-9._-]{1,64}$/
const ORIGINS: readonly string[] = ['base', 'auth', 'directory', 'any']

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

/** The sandbox's own sentence from an error body, or the start of the body. */
function sandboxSays(res: FlowResponse): string {
  const d = jsonObject(res.json).error_description
  return typeof d === 'string' && d ? d : res.text.slice(0, 300) || 'No body.'
}

function unexpected(res: FlowResponse, what: string): AppError {
  return new AppError('HTTP_ERROR', {
    what: `${what}: the local directory answered ${res.status}.`,
    cause: sandboxSays(res),
    fix: 'See the exchange in the inspector; restart the local sandbox if it persists.',
    details: { status: res.status },
  })
}

/** One listed rule, kept to the fields the contract names (a rule the sandbox lists oddly fails the call). */
function ruleOf(v: unknown): SandboxFaultRuleDto | undefined {
  if (!isObject(v) || !isObject(v.fault) || typeof v.fault.kind !== 'string') return undefined
  const { id, origin, method, path, skip, times, seen, hits, exhausted } = v
  if (typeof id !== 'string' || typeof origin !== 'string' || !ORIGINS.includes(origin)) return undefined
  if (typeof path !== 'string' || typeof skip !== 'number' || typeof seen !== 'number') return undefined
  if (typeof hits !== 'number' || typeof exhausted !== 'boolean') return undefined
  return {
    id,
    origin: origin as SandboxFaultOrigin,
    ...(typeof method === 'string' ? { method } : {}),
    path,
    skip,
    ...(typeof times === 'number' ? { times } : {}),
    fault: v.fault as SandboxFaultDto,
    seen,
    hits,
    exhausted,
  }
}

/**
 * A `tls-handshake` rule on the directory (or any origin) with no `times` refuses every new connection to the
 * directory, the admin endpoint's own included: nothing could remove it until the sandbox restarted. The
 * console does not add one (the sandbox would); the rule's other fields are the sandbox's to check.
 */
function refuseLockout(rule: unknown): void {
  if (!isObject(rule) || !isObject(rule.fault) || rule.fault.kind !== 'tls-handshake') return
  const origin = rule.origin ?? 'any'
  if ((origin !== 'directory' && origin !== 'any') || rule.times !== undefined) return
  throw new AppError('INVALID_INPUT', {
    what: `The console does not add a tls-handshake rule on ${origin === 'any' ? 'every origin' : 'the directory'} with no "times".`,
    cause:
      'It would refuse every new connection to the local directory, its fault admin endpoint included, so the rule could not be removed until the sandbox restarts.',
    fix: 'Set "origin" to "base" or "auth", or give "times" (how many connections to refuse).',
    details: { field: 'rule.origin' },
  })
}

/** The rule's JSON text as sent: an object from the form, or the user's own text, as written. */
function ruleText(input: SandboxFaultAdd): string {
  const text = 'json' in input ? input.json : JSON.stringify(input.rule)
  if (!text.trim())
    throw new AppError('INVALID_INPUT', {
      what: 'The fault rule is empty.',
      cause: 'A fault rule is a JSON object with at least a "fault".',
      fix: 'Write a rule such as {"path": "/open-banking/v4.0/aisp/accounts", "fault": {"kind": "status", "status": 503}}.',
    })
  if (text.length > MAX_RULE_CHARS)
    throw new AppError('INVALID_INPUT', {
      what: `The fault rule is ${text.length} characters long.`,
      cause: `The console sends rules of at most ${MAX_RULE_CHARS} characters.`,
      fix: 'Shorten it: a "status" body that large belongs in a test server of your own.',
    })
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return text // the sandbox says where the JSON breaks
  }
  refuseLockout(parsed)
  return text
}

export class SandboxFaultsService {
  constructor(
    private readonly environments: EnvironmentsService,
    private readonly http: HttpEngine,
  ) {}

  #admin(): SandboxAdmin {
    return localSandboxAdmin(this.environments, this.http, 'fault rules')
  }

  /** The rules in force, in the order they are tried, with their `seen`, `hits` and `exhausted`. */
  async list(admin = this.#admin()): Promise<SandboxFaultsDto> {
    const res = await admin.send({
      method: 'GET',
      url: admin.url('faults'),
      headers: { accept: 'application/json' },
      label: 'sandbox fault rules',
    })
    const listed = jsonObject(res.json).rules
    const rules = Array.isArray(listed) ? listed.map(ruleOf) : undefined
    if (res.status !== 200 || !rules || rules.some((r) => !r)) throw unexpected(res, 'Reading the fault rules failed')
    return { rules: rules as SandboxFaultRuleDto[] }
  }

  /** Adds one rule after those in force; the sandbox checks it (a bad one: INVALID_INPUT naming the field). */
  async add(input: SandboxFaultAdd): Promise<SandboxFaultsDto> {
    const body = ruleText(input)
    const admin = this.#admin()
    const res = await admin.send({
      method: 'POST',
      url: admin.url('faults'),
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body,
      label: 'sandbox fault rule (add)',
    })
    const answer = jsonObject(res.json)
    if (res.status >= 400 && res.status < 500 && typeof answer.error_description === 'string') {
      const field = typeof answer.field === 'string' ? answer.field : undefined
      throw new AppError('INVALID_INPUT', {
        what: 'The local sandbox refused the fault rule.',
        cause: sandboxSays(res),
        fix: `${field ? `Correct ${field}` : 'Correct the rule'} and add it again; docs/local-sandbox.md, "Fault mode", lists each kind and its fields.`,
        details: { status: res.status, ...(field ? { field } : {}) },
      })
    }
    const added = ruleOf(answer.rule)
    if (res.status !== 201 || !added) throw unexpected(res, 'Adding the fault rule failed')
    return { ...(await this.list(admin)), added: added.id }
  }

  /** Removes the rule `id`; NOT_FOUND when the sandbox has none by that id. */
  async remove(id: string): Promise<SandboxFaultsDto> {
    if (!ID.test(id))
      throw new AppError('INVALID_INPUT', {
        what: `${JSON.stringify(id.slice(0, 70))} is not the id of a fault rule.`,
        cause: 'Fault rule ids are 1 to 64 letters, digits, ".", "_" or "-".',
        fix: 'Pick the rule to remove from the list of rules.',
      })
    const admin = this.#admin()
    const res = await admin.send({
      method: 'DELETE',
      url: admin.url(`faults/${encodeURIComponent(id)}`),
      headers: { accept: 'application/json' },
      label: 'sandbox fault rule (remove)',
    })
    if (res.status === 404)
      throw new AppError('NOT_FOUND', {
        what: `The local sandbox has no fault rule "${id}".`,
        cause: sandboxSays(res),
        fix: 'Refresh the list of rules: it was removed already (the rules were cleared, or the sandbox restarted).',
      })
    const { removed } = jsonObject(res.json)
    if (res.status !== 200 || typeof removed !== 'number') throw unexpected(res, 'Removing the fault rule failed')
    return { ...(await this.list(admin)), removed }
  }

  /** Removes every rule: the sandbox answers as a healthy bank again. */
  async clear(): Promise<SandboxFaultsDto> {
    const admin = this.#admin()
    const res = await admin.send({
      method: 'DELETE',
      url: admin.url('faults'),
      headers: { accept: 'application/json' },
      label: 'sandbox fault rules (clear)',
    })
    const { removed } = jsonObject(res.json)
    if (res.status !== 200 || typeof removed !== 'number') throw unexpected(res, 'Clearing the fault rules failed')
    return { ...(await this.list(admin)), removed }
  }
}
