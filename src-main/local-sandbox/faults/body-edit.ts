import type { Fault, PaginationMode } from './fault-rules.ts'

type Json = unknown

function tokens(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
}

/** Sets the member at a JSON pointer, creating objects on the way; `-` appends to a list. */
export function setAt(root: Json, pointer: string, value: Json): Json {
  const path = tokens(pointer)
  if (path.length === 0) return value
  let node = root as Record<string, Json> | Json[]
  for (const [i, key] of path.entries()) {
    const last = i === path.length - 1
    if (Array.isArray(node)) {
      const index = key === '-' ? node.length : Number(key)
      if (!Number.isInteger(index) || index < 0) return root
      if (last) node[index] = value
      else {
        if (node[index] === null || typeof node[index] !== 'object') node[index] = {}
        node = node[index] as Record<string, Json>
      }
    } else {
      if (last) node[key] = value
      else {
        if (node[key] === null || typeof node[key] !== 'object') node[key] = {}
        node = node[key] as Record<string, Json>
      }
    }
  }
  return root
}

/** Removes the member at a JSON pointer (nothing when it is absent). */
export function removeAt(root: Json, pointer: string): Json {
  const path = tokens(pointer)
  if (path.length === 0) return undefined
  let node: Json = root
  for (const key of path.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return root
    node = (node as Record<string, Json>)[key]
  }
  const key = path[path.length - 1]!
  if (Array.isArray(node)) {
    const index = Number(key)
    if (Number.isInteger(index) && index >= 0 && index < node.length) node.splice(index, 1)
  } else if (node !== null && typeof node === 'object') {
    delete (node as Record<string, Json>)[key]
  }
  return root
}

function get(root: Json, pointer: string): Json {
  let node = root
  for (const key of tokens(pointer))
    node = node !== null && typeof node === 'object' ? (node as Record<string, Json>)[key] : undefined
  return node
}

/** The `set`/`remove` edits a pagination shorthand makes on this transactions page. */
export function paginationEdits(mode: PaginationMode, page: Json): { set?: Record<string, Json>; remove?: string[] } {
  const self = get(page, '/Links/Self')
  const next = get(page, '/Links/Next')
  const target = typeof next === 'string' ? next : typeof self === 'string' ? self : undefined
  switch (mode) {
    case 'loop':
      // Next leads back to the page just read.
      return typeof self === 'string' ? { set: { '/Links/Next': self } } : {}
    case 'off-host': {
      if (!target) return {}
      const url = new URL(target)
      return { set: { '/Links/Next': `https://evil.example${url.pathname}${url.search}` } }
    }
    case 'http': {
      if (!target) return {}
      const url = new URL(target)
      url.protocol = 'http:'
      return { set: { '/Links/Next': url.toString() } }
    }
    case 'missing-next':
      return { remove: ['/Links/Next'] }
    case 'wrong-total': {
      const total = get(page, '/Meta/TotalPages')
      return { set: { '/Meta/TotalPages': (typeof total === 'number' ? total : 1) + 3 } }
    }
  }
}

/**
 * The JSON answer with a `mutate` or `pagination` fault applied; undefined when the answer is not JSON
 * (it is then sent as it was).
 */
export function editJsonBody(
  body: Buffer,
  fault: Extract<Fault, { kind: 'mutate' | 'pagination' }>,
): Buffer | undefined {
  let json: Json
  try {
    json = JSON.parse(body.toString('utf8'))
  } catch {
    return undefined
  }
  const edits = fault.kind === 'mutate' ? fault : paginationEdits(fault.mode, json)
  for (const [pointer, value] of Object.entries(edits.set ?? {})) json = setAt(json, pointer, structuredClone(value))
  for (const pointer of edits.remove ?? []) json = removeAt(json, pointer)
  return Buffer.from(json === undefined ? '' : JSON.stringify(json), 'utf8')
}
