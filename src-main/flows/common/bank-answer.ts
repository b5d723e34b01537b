import { createHash } from 'node:crypto'
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import { AppError } from '../../core/app-error.ts'
import { errorPointer, toObPath, valueAt } from '../../plumbing/json-pointer.ts'
import type { FlowResponse } from '../flow-context.ts'
import { unexpectedAnswer } from './failures.ts'

/**
 * The shape a step needs of a bank's answer: a small JSON schema, compiled once, on its first use. `name`
 * is how the sentences call the answer (`the account list (OBReadAccount6)`). `T` is the answer's type, from
 * the official schema (`src-main/plumbing/ob-wire/`): the schema checks the members the step reads; the others
 * are typed as the official file defines them and reach no decision of the step unchecked.
 */
export interface AnswerShape<T = unknown> {
  name: string
  readonly schema: Record<string, unknown>
  readonly validate: ValidateFunction<T>
}

/**
 * The options every shape is compiled with, here or ahead of time. Strict, but the shapes are not checked
 * against the meta-schema on every start (compiling it cost about 60 ms of each command): the unit tests check
 * every shape made (`answerShapes`) against it instead.
 */
export const answerShapeAjv = (source = false): Ajv =>
  new Ajv({ allErrors: false, strict: true, validateSchema: false, ...(source ? { code: { source } } : {}) })

let ajv: Ajv | undefined
const made: AnswerShape[] = []

/** The validators built ahead by key (`answerShapeKey`), once asked for: see `useBuiltAnswerShapes`. */
let built:
  | { load: () => ReadonlyMap<string, ValidateFunction> | undefined; loaded?: ReadonlyMap<string, ValidateFunction> }
  | undefined

/**
 * Where the shapes' validators built ahead of time come from (services/answer-shape-validators.ts: a module of
 * out/validators/), read when a step first reads an answer. Without it, or for a shape the module does not hold
 * (built from other code), each shape is compiled on its first use: 1.5-3 ms each, about 10 ms for the first.
 */
export function useBuiltAnswerShapes(load: () => ReadonlyMap<string, ValidateFunction> | undefined): void {
  built = { load }
}

/** A shape's key in the module built ahead: from its name and schema, so a changed shape is never taken for another. */
export function answerShapeKey(shape: Pick<AnswerShape, 'name' | 'schema'>): string {
  const hash = createHash('sha256').update(JSON.stringify([shape.name, shape.schema]))
  return `shape_${hash.digest('hex').slice(0, 24)}`
}

function builtValidator(shape: Pick<AnswerShape, 'name' | 'schema'>): ValidateFunction | undefined {
  if (!built) return undefined
  built.loaded ??= built.load() ?? new Map()
  return built.loaded.get(answerShapeKey(shape))
}

/**
 * A shape, built ahead of time or compiled when a step first reads an answer with it: the steps' modules make
 * theirs as they load, and compiling all of them then cost about 0.1 s of every command's start.
 */
export function answerShape<T>(name: string, schema: Record<string, unknown>): AnswerShape<T> {
  let compiled: ValidateFunction<T> | undefined
  const shape: AnswerShape<T> = {
    name,
    schema,
    get validate() {
      return (compiled ??=
        (builtValidator(shape) as ValidateFunction<T> | undefined) ?? (ajv ??= answerShapeAjv()).compile<T>(schema))
    },
  }
  made.push(shape as AnswerShape)
  return shape
}

/** Every shape made so far in this process (the steps' modules make theirs when they load). */
export function answerShapes(): readonly AnswerShape[] {
  return made
}

/** A string with something in it: the schema of most of the fields a step reads (ids, statuses, amounts). */
export const NON_EMPTY_STRING = { type: 'string', minLength: 1 }

/**
 * An amount of a v4.0 answer (`OBActiveOrHistoricCurrencyAndAmount`: balances, transactions, payments):
 * `Amount` a decimal in a string, `Currency` a code. Every step that reads one reads it with this shape, so
 * the same fault fails each of them the same way.
 */
export const OB_AMOUNT = {
  type: 'object',
  required: ['Amount', 'Currency'],
  properties: { Amount: NON_EMPTY_STRING, Currency: NON_EMPTY_STRING },
}

/** `Links` of a v4.0 answer: `Self` always, `Next` on a page that has a next one. */
const LINKS = {
  type: 'object',
  required: ['Self'],
  properties: { Self: NON_EMPTY_STRING, Next: NON_EMPTY_STRING },
}

/**
 * The shape of a v4.0 answer (`Data`, `Links`, optional `Meta`) whose `Data` must match `data`: the part
 * of the official schema the step reads. `T` is the official answer's type; `Checked` names the members of its
 * `Data` the shape requires (optional in the official schema, present once the answer passed).
 */
export function obAnswerShape<T extends { Data: object }, Checked extends keyof T['Data'] = never>(
  name: string,
  data: Record<string, unknown>,
): AnswerShape<T & { Data: Required<Pick<T['Data'], Checked>> }> {
  return answerShape(name, {
    type: 'object',
    required: ['Data', 'Links'],
    properties: {
      Data: data,
      Links: LINKS,
      Meta: { type: 'object', properties: { TotalPages: { type: 'integer', minimum: 0 } } },
    },
  })
}

/** What a step reads: the status it expects, the shape it needs, and its advice for an error status. */
export interface AnswerSpec<T = unknown> {
  /** What the step was doing, as the error's first words: `Reading the accounts`. */
  what: string
  /** The success status the step expects (200, or 201 for a created resource). */
  status: number
  shape: AnswerShape<T>
  /** The step's own advice when the bank answers an error status (4xx, 5xx). */
  fix: string
}

/** What the bank must correct, and what the developer does meanwhile: the same for every malformed answer. */
function reportFix(res: FlowResponse): string {
  const id = res.headers['x-fapi-interaction-id']
  return `Nothing in your request causes this: report the answer to the bank${id ? ` with x-fapi-interaction-id ${id}` : ''} (the exchange log holds it whole), then re-run this step.`
}

function details(res: FlowResponse, extra: Record<string, string | number>): Record<string, string | number> {
  const id = res.headers['x-fapi-interaction-id']
  return { status: res.status, exchangeId: res.exchangeId, ...(id ? { interactionId: id } : {}), ...extra }
}

function invalid(
  res: FlowResponse,
  what: string,
  cause: string,
  extra: Record<string, string | number> = {},
): AppError {
  return new AppError('BANK_ANSWER_INVALID', { what, cause, fix: reportFix(res), details: details(res, extra) })
}

/** The title of an HTML page (or its first heading), to name the page in a sentence. */
export function htmlTitle(text: string): string | undefined {
  const m = /<title[^>]*>([^<]{1,120})<\/title>/i.exec(text) ?? /<h1[^>]*>([^<]{1,120})<\/h1>/i.exec(text)
  return m?.[1]?.trim() || undefined
}

function looksHtml(text: string): boolean {
  return /^\s*(<!doctype html|<html|<head|<body|<center|<h1)/i.test(text)
}

/** `/Data/Account/0` → `Data.Account[0]`; the root is `the body`. */
export function jsonPath(pointer: string): string {
  return toObPath(pointer) || 'the body'
}

/**
 * A value in words, for a sentence of a step's error: `null`, `a list of 2`, `an object`, `the string "x"`, `the
 * number 4` (a violation's value field shows JSON instead: `describeValue`, plumbing/json-pointer.ts).
 */
export function valueInWords(value: unknown): string {
  if (value === null) return 'null'
  if (value === undefined) return 'nothing'
  if (Array.isArray(value)) return value.length ? `a list of ${value.length}` : 'an empty list'
  if (typeof value === 'object') return 'an object'
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value)}`
  return `the ${typeof value} ${String(value)}`
}

const TYPE_WORDS: Record<string, string> = {
  object: 'an object',
  array: 'a list',
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  null: 'null',
}

/** One schema error as a sentence naming the JSON path, what was expected and what came. */
function shapeProblem(e: ErrorObject, body: unknown): { path: string; expected: string; got: string } {
  const path = jsonPath(e.instancePath)
  const got = valueInWords(valueAt(body, e.instancePath))
  switch (e.keyword) {
    case 'required': {
      const missing = jsonPath(errorPointer(e))
      return { path: missing, expected: 'present', got: 'nothing (the member is missing)' }
    }
    case 'type': {
      const t = (e.params as { type: string }).type
      return {
        path,
        expected: t
          .split(',')
          .map((x) => TYPE_WORDS[x] ?? x)
          .join(' or '),
        got,
      }
    }
    case 'minLength':
      return { path, expected: 'a non-empty string', got }
    case 'pattern':
    case 'format':
      return {
        path,
        expected: `a value matching ${(e.params as { pattern?: string; format?: string }).pattern ?? (e.params as { format: string }).format}`,
        got,
      }
    case 'enum':
      return {
        path,
        expected: `one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`,
        got,
      }
    default:
      return { path, expected: e.message ?? 'a valid value', got }
  }
}

/** The body as JSON, or BANK_ANSWER_INVALID with the parser's account (a body cut short named so). */
function jsonBody<T>(res: FlowResponse, spec: AnswerSpec<T>, text: string): unknown {
  // The body as the HTTP engine parsed it (once, on first read); parsed here only when it did not parse there,
  // for the parser's own account of what is wrong.
  if (res.json !== undefined) return res.json
  try {
    return JSON.parse(text) as unknown
  } catch (err) {
    const cut = /end of (JSON )?input|Unterminated/i.test((err as Error).message)
    throw invalid(
      res,
      `${spec.what}: the body (${Buffer.byteLength(text)} bytes, declared JSON) is not valid JSON: ${(err as Error).message}.`,
      cut
        ? 'The JSON stops in the middle: the bank (or a gateway) cut its answer short.'
        : `The bank's API sent malformed JSON, beginning ${JSON.stringify(text.slice(0, 40))}.`,
      { bytes: Buffer.byteLength(text) },
    )
  }
}

/**
 * The one decoding step for every bank answer a flow reads: status, content type, JSON, then the shape
 * the step needs. Returns the parsed body; otherwise throws a coded AppError that names what failed:
 * - an error status: the bank's explanation (OB_ERROR with `Errors[]`, OAUTH_ERROR, or HTTP_ERROR with
 *   the status explained, `Retry-After` read as seconds or a date, an HTML gateway page named);
 * - another success status, an empty body, a content type that is not JSON, a body that is not JSON or
 *   is cut short, or a body without a member the step reads or with one of the wrong type:
 *   BANK_ANSWER_INVALID naming the JSON path, what was expected and what came.
 */
export function readBankAnswer<T>(res: FlowResponse, spec: AnswerSpec<T>): T {
  const { name } = spec.shape
  if (res.status >= 400) throw unexpectedAnswer(res, `${spec.what} failed`, spec.fix)
  if (res.status >= 300 || res.status < 200) {
    throw invalid(
      res,
      `${spec.what}: the bank answered ${res.status}${res.status >= 300 ? ` (a redirect to ${res.headers.location ?? 'nowhere'})` : ''} where ${spec.status} with ${name} was expected.`,
      res.status >= 300
        ? 'A gateway or login portal in front of the bank redirected the API call; the API itself never answered.'
        : "The bank's API sent an interim answer where a final one was due.",
      { expected: spec.status },
    )
  }
  const contentType = res.headers['content-type'] ?? ''
  const text = res.text
  if (text.trim() === '') {
    throw invalid(
      res,
      `${spec.what}: the bank answered ${res.status} with an empty body where ${name} was expected.`,
      "The bank's API (or a gateway in front of it) sent no content: an outage or a misconfigured proxy on the bank's side.",
      { contentType: contentType || '(none)' },
    )
  }
  if (looksHtml(text)) {
    const title = htmlTitle(text)
    throw invalid(
      res,
      `${spec.what}: the bank answered ${res.status} with an HTML page${title ? ` ("${title}")` : ''} where ${name} was expected.`,
      "A gateway, maintenance or login page answered in place of the bank's API (the API answers JSON only).",
      { contentType: contentType || '(none)', ...(title ? { title } : {}) },
    )
  }
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType)) {
    throw invalid(
      res,
      `${spec.what}: the bank answered with Content-Type ${contentType ? `"${contentType}"` : '(none)'} where application/json was expected.`,
      `The bank's API (or a gateway in front of it) labels the answer wrongly; ${name} is sent as application/json, and a client must not read a body as JSON that is not declared JSON.`,
      { contentType: contentType || '(none)' },
    )
  }
  if (text.charCodeAt(0) === 0xfeff) {
    throw invalid(
      res,
      `${spec.what}: the body (${Buffer.byteLength(text)} bytes, declared JSON) starts with a UTF-8 byte order mark (the bytes EF BB BF, invisible in most views) before ${name}.`,
      "JSON sent over a network must not begin with a byte order mark (RFC 8259 §8.1): the bank's API (or a gateway in front of it) adds one, and a JSON reader stops at it.",
      { bytes: Buffer.byteLength(text) },
    )
  }
  const body = jsonBody(res, spec, text)
  if (res.status !== spec.status) {
    throw invalid(
      res,
      `${spec.what}: the bank answered ${res.status} where ${spec.status} with ${name} was expected.`,
      `The bank's API answered a success status this call does not produce in Open Banking v4.0 (${spec.status} ${spec.status === 201 ? 'Created: the resource was made' : 'OK'}); whether it acted as asked is not known from the answer.`,
      { expected: spec.status },
    )
  }
  if (!spec.shape.validate(body)) {
    const problem = shapeProblem(spec.shape.validate.errors![0]!, body)
    throw invalid(
      res,
      `${spec.what}: in the bank's answer, ${problem.path} is ${problem.got} where ${name} needs ${problem.expected === 'present' ? `${problem.path}` : problem.expected}.`,
      `The bank's API sent ${name} without what this step reads (${problem.path} ${problem.expected === 'present' ? 'is mandatory' : `must be ${problem.expected}`}): a fault in the bank's implementation of Open Banking v4.0.`,
      { path: problem.path, expected: problem.expected, got: problem.got },
    )
  }
  return body
}
