/**
 * Reads the V8 CPU profiles written by `node --cpu-prof` (`npm run bench -- --profile DIR`) and
 * summarises where the time went: self time by function and by package or source folder, and the
 * inclusive time of our own functions. Enough to name a hot spot without opening DevTools.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}

interface CpuProfile {
  nodes: ProfileNode[]
  startTime: number
  endTime: number
  samples: number[]
  timeDeltas: number[]
}

export interface ProfileSummary {
  file: string
  durationMs: number
  /** Share of all samples spent idle, in percent. */
  idlePct: number
  /** The other figures are shares of the busy (non-idle) samples, in percent. */
  gcPct: number
  topSelf: Array<{ name: string; pct: number }>
  byArea: Array<{ area: string; pct: number }>
  ownInclusive: Array<{ name: string; pct: number }>
}

/** `node_modules/koa`, `src-main/local-sandbox/ais`, `node:internal`, `(garbage collector)`... */
export function areaOf(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)'
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (nm) return `node_modules/${nm[1]}`
  const own = /\/(src-main\/[^/]+(?:\/[^/]+)?)\//.exec(url)
  if (own) return own[1]!
  if (url.startsWith('node:')) return 'node:internal'
  return url
    .replace(/^file:\/\//, '')
    .split('/')
    .slice(-2)
    .join('/')
}

function shortUrl(url: string): string {
  return url.replace(/^file:\/\//, '').replace(/^.*?\/(node_modules|src-main|test)\//, '$1/')
}

function top<T>(m: Map<string, number>, total: number, n: number, make: (k: string, pct: number) => T): T[] {
  return [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => make(k, (100 * v) / total))
}

/** Summarises one .cpuprofile file (`limit`: rows of the function lists). */
export function summariseProfile(file: string, limit = 15): ProfileSummary {
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile
  const byId = new Map(p.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const key = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'} ${shortUrl(n.callFrame.url)}`
  const self = new Map<string, number>()
  const area = new Map<string, number>()
  const inclusive = new Map<string, number>()
  let idle = 0
  let gc = 0
  for (const id of p.samples) {
    const leaf = byId.get(id)!
    const fn = leaf.callFrame.functionName
    if (fn === '(idle)') {
      idle++
      continue
    }
    if (fn === '(garbage collector)') gc++
    self.set(key(leaf), (self.get(key(leaf)) ?? 0) + 1)
    const a = areaOf(leaf.callFrame.url, fn)
    area.set(a, (area.get(a) ?? 0) + 1)
    const seen = new Set<string>()
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur)!
      if (!n.callFrame.url.includes('/src-main/')) continue
      const k = key(n)
      if (seen.has(k)) continue
      seen.add(k)
      inclusive.set(k, (inclusive.get(k) ?? 0) + 1)
    }
  }
  const total = Math.max(1, p.samples.length - idle)
  return {
    file,
    durationMs: (p.endTime - p.startTime) / 1000,
    idlePct: (100 * idle) / Math.max(1, p.samples.length),
    gcPct: (100 * gc) / total,
    topSelf: top(self, total, limit, (name, pct) => ({ name, pct })),
    byArea: top(area, total, 12, (area, pct) => ({ area, pct })),
    ownInclusive: top(inclusive, total, limit, (name, pct) => ({ name, pct })),
  }
}

/** Node's default profile name: `CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile`; thread 0 is the main thread. */
const DEFAULT_NAME = /^CPU\.\d+\.\d+\.\d+\.(\d+)\.\d+\.cpuprofile$/

/**
 * A printable summary of every .cpuprofile in `dir` and its sub-directories (one per server). Worker
 * threads (tsx's module loader runs in one) are left out: the servers' work is on the main thread.
 */
export function summariseProfiles(dir: string): string {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.cpuprofile'))
    .filter((f) => (DEFAULT_NAME.exec(f.split('/').at(-1)!)?.[1] ?? '0') === '0')
    .sort()
  if (!files.length) return `no main-thread .cpuprofile in ${dir}`
  const out: string[] = []
  for (const f of files) {
    const s = summariseProfile(join(dir, f))
    out.push(
      `CPU profile ${f}: ${(s.durationMs / 1000).toFixed(1)} s, idle ${s.idlePct.toFixed(1)}%; of the busy samples: GC ${s.gcPct.toFixed(1)}%`,
    )
    out.push('  self time by area (% of busy):')
    for (const a of s.byArea) out.push(`    ${a.pct.toFixed(1).padStart(5)}%  ${a.area}`)
    out.push('  self time by function (% of busy):')
    for (const t of s.topSelf) out.push(`    ${t.pct.toFixed(1).padStart(5)}%  ${t.name}`)
    out.push('  inclusive time of src-main functions (% of busy):')
    for (const t of s.ownInclusive) out.push(`    ${t.pct.toFixed(1).padStart(5)}%  ${t.name}`)
  }
  return out.join('\n')
}
