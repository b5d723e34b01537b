/**
 * P7 and P8: how long the command line takes to be of use, as a user runs it (`node bin/ob-console.js`,
 * the built out/cli; `npm run build:cli` first when it is missing). `OB_BENCH_CLI_ROOT=DIR` measures the
 * command line of another checkout instead (a before/after comparison).
 *
 *  - P7-help: wall time and peak RSS of `ob-console help` against `node -e 0`, alternating, after one uncounted run.
 *  - P7-ais: wall time and peak RSS of `ob-console ais --env local --headless --json` (a fresh local
 *    sandbox, a TPP onboarded, a client registered, the whole AIS journey) against the sum of its own
 *    steps' times from the same run's JSON. A first, uncounted run makes the PKI template (in a temporary
 *    folder, `OB_CONSOLE_PKI_TEMPLATE_DIR`), as a user's first run does in their cache directory.
 *  - P8: `ob-console serve --port P --json` started to the console's "Main" navigation visible in
 *    Chromium, on a data directory a first uncounted start has made, with the URL opened as a new tab of a
 *    browser already running (one profile, one window: `runningBrowser`), on one port P for every start (as
 *    `serve` keeps its default port, 53681, from one start to the next; P is a free one instead, so that a
 *    console the user runs is not disturbed): the steady state of a user's machine, where the PKI, the keys
 *    and the browser's copy of the console's scripts exist. Against a bare Node server of a one-element page
 *    started and opened the same way.
 *
 * Peak RSS comes from the child itself: a preload prints it on exit to a pipe of its own (fd 3), for the
 * command and for its floor alike: `VmHWM` of /proc/self/status on Linux, where `process.resourceUsage().maxRSS`
 * is the larger of the child's and the bench's own peak (it survives the fork and the exec: a bench of 700 MB
 * read 717 MB for `node -e 0`), elsewhere `maxRSS`.
 */
import { spawn } from 'node:child_process'
import module from 'node:module'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from '@playwright/test'
import type { Benchmark, BenchResult } from './lib/report.ts'
import { REPO_ROOT } from './lib/sandbox-process.ts'
import { formatSpread, spread } from './lib/stats.ts'
import { launchChromium } from './ui/browser.ts'
import { buildConsole } from './ui/build.ts'
import { runningBrowser, timeFirstScreen } from './ui/processes.ts'
import { freePort } from '../support/free-ports.ts'

const HELP_RUNS = 9
const AIS_RUNS = 5
const P8_RUNS = 5
const HELP_RATIO_TARGET = 2
const AIS_TARGET_MS = 800
const P8_TARGET_MS = 600

/** The checkout whose command line is measured: this one, or `$OB_BENCH_CLI_ROOT` (to measure another version). */
const CLI_ROOT = process.env.OB_BENCH_CLI_ROOT ?? REPO_ROOT
const BIN = join(CLI_ROOT, 'bin/ob-console.js')
const RSS_PRELOAD = `--import=data:text/javascript,${encodeURIComponent(
  "import{readFileSync,writeSync}from'node:fs';" +
    "const hwm=()=>{try{return Number(/VmHWM:\\s*(\\d+)/.exec(readFileSync('/proc/self/status','utf8'))?.[1])||undefined}catch{return undefined}};" +
    "process.on('exit',()=>{try{const u=process.resourceUsage();writeSync(3,JSON.stringify({rss:hwm()??u.maxRSS,cpu:(u.userCPUTime+u.systemCPUTime)/1000}))}catch{}})",
)}`

interface Timed {
  ms: number
  rssKb: number
  /** CPU time of the child (user + system, all its threads), ms: less disturbed by other load than wall time. */
  cpuMs: number
  code: number | null
  stdout: string
  stderr: string
}

/** Runs `node <args>` to its end; wall time from spawn to exit, and the child's peak RSS. */
function timed(args: string[], env: Record<string, string> = {}): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now()
    const child = spawn(process.execPath, [RSS_PRELOAD, ...args], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', ...env },
    })
    let stdout = ''
    let stderr = ''
    let usage = ''
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)))
    ;(child.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => (usage += d.toString()))
    child.once('error', reject)
    child.once('close', (code) => {
      const u = (() => {
        try {
          return JSON.parse(usage) as { rss: number; cpu: number }
        } catch {
          return { rss: NaN, cpu: NaN }
        }
      })()
      resolve({ ms: performance.now() - t0, rssKb: u.rss, cpuMs: u.cpu, code, stdout, stderr })
    })
  })
}

const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`

/**
 * Whether the Node that runs the command keeps the compiled code of ES modules between runs (Node 22.1 and
 * later: bin/ob-console.js turns it on for out/cli/main.js), said in the start-up figures' notes. The commands'
 * code (out/cli/commands.cjs) comes from V8's code cache on any Node, made by each command's first run.
 */
const compileCacheNote = (): string =>
  typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function'
    ? `Node ${process.versions.node}, which keeps the compiled code of ES modules between runs; the commands' code from V8's code cache the first run made.`
    : `Node ${process.versions.node}, which has no compile cache for ES modules (Node 22.1 and later have one): main.js compiles on every start, the commands' code comes from V8's code cache the first run made.`

async function p7Help(log: (l: string) => void): Promise<BenchResult> {
  const runs: Record<'help' | 'node', Timed[]> = { help: [], node: [] }
  await timed([BIN, 'help']) // uncounted: fills Node's compile cache where it has one, as a user's first run does
  for (let i = 0; i < HELP_RUNS; i++) {
    for (const kind of i % 2 === 0 ? (['help', 'node'] as const) : (['node', 'help'] as const)) {
      const r = kind === 'help' ? await timed([BIN, 'help']) : await timed(['-e', '0'])
      if (r.code !== 0)
        throw new Error(`${kind === 'help' ? 'ob-console help' : 'node -e 0'} exited with ${r.code}: ${r.stderr}`)
      runs[kind].push(r)
    }
  }
  const h = spread(runs.help.map((r) => r.ms))
  const n = spread(runs.node.map((r) => r.ms))
  const hr = spread(runs.help.map((r) => r.rssKb))
  const nr = spread(runs.node.map((r) => r.rssKb))
  const ratio = h.median / n.median
  log(`startup: P7 help ${h.median.toFixed(0)} ms vs node ${n.median.toFixed(0)} ms`)
  return {
    id: 'P7-help',
    what: '`ob-console help`, wall time',
    figure: `${formatSpread(h, 0, ' ms')}, ${mb(hr.median)} RSS`,
    peer: `node -e 0: ${formatSpread(n, 0, ' ms')}, ${mb(nr.median)}`,
    ratio,
    ratioText: `${ratio.toFixed(2)}x node`,
    target: `<= ${HELP_RATIO_TARGET}x node`,
    verdict: ratio <= HELP_RATIO_TARGET ? 'pass' : 'fail',
    note: `${HELP_RUNS} runs each, alternating; peak RSS ${formatSpread(hr, 0, ' KB')} against ${formatSpread(nr, 0, ' KB')}; CPU time ${formatSpread(spread(runs.help.map((r) => r.cpuMs)), 0, ' ms')} against ${formatSpread(spread(runs.node.map((r) => r.cpuMs)), 0, ' ms')}.`,
    data: {
      runs: {
        help: runs.help.map(({ ms, rssKb, cpuMs }) => ({ ms, rssKb, cpuMs })),
        node: runs.node.map(({ ms, rssKb, cpuMs }) => ({ ms, rssKb, cpuMs })),
      },
    },
  }
}

async function p7Ais(log: (l: string) => void): Promise<BenchResult> {
  const templateDir = join(mkdtempSync(join(tmpdir(), 'ob-bench-p7-')), 'pki-template')
  const env = { OB_CONSOLE_PKI_TEMPLATE_DIR: templateDir }
  const args = [BIN, 'ais', '--env', 'local', '--headless', '--json']
  try {
    const one = async () => {
      const r = await timed(args, env)
      if (r.code !== 0) throw new Error(`ob-console ais exited with ${r.code}: ${r.stderr}`)
      const result = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as {
        steps: Array<{ name: string; ms: number; status: string }>
      }
      return { ...r, stepsMs: result.steps.reduce((sum, s) => sum + s.ms, 0), steps: result.steps }
    }
    const first = await one()
    log(`startup: P7 ais first run (makes the PKI template) ${first.ms.toFixed(0)} ms`)
    const runs = []
    for (let i = 0; i < AIS_RUNS; i++) {
      runs.push(await one())
      log(
        `startup: P7 ais run ${i + 1}/${AIS_RUNS}: ${runs.at(-1)!.ms.toFixed(0)} ms, steps ${runs.at(-1)!.stepsMs} ms`,
      )
    }
    const w = spread(runs.map((r) => r.ms))
    const s = spread(runs.map((r) => r.stepsMs))
    const rss = spread(runs.map((r) => r.rssKb))
    return {
      id: 'P7-ais',
      what: '`ais --env local --headless --json`',
      figure: `${formatSpread(w, 0, ' ms')}, ${mb(rss.median)} RSS`,
      peer: `its steps: ${formatSpread(s, 0, ' ms')}`,
      ratio: w.median / s.median,
      ratioText: `+${(w.median - s.median).toFixed(0)} ms`,
      target: `<= ${AIS_TARGET_MS} ms`,
      verdict: w.median <= AIS_TARGET_MS ? 'pass' : 'fail',
      note: `${AIS_RUNS} runs after one that made the PKI template (${first.ms.toFixed(0)} ms); CPU time (all threads) ${formatSpread(spread(runs.map((r) => r.cpuMs)), 0, ' ms')}. The difference is start-up: loading the engine and the sandbox, starting the sandbox from the template, onboarding a TPP (two new RSA keys), registering a client, and stopping. ${compileCacheNote()}`,
      data: {
        firstMs: first.ms,
        runs: runs.map(({ ms, rssKb, cpuMs, stepsMs, steps }) => ({ ms, rssKb, cpuMs, stepsMs, steps })),
      },
    }
  } finally {
    rmSync(join(templateDir, '..'), { recursive: true, force: true })
  }
}

async function p8(browser: Browser, rendererDir: string, log: (l: string) => void): Promise<BenchResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ob-bench-p8-'))
  const user = await runningBrowser(browser)
  const port = await freePort()
  const open = (kind: 'console' | 'floor') => timeFirstScreen(user.open, kind, { bin: BIN, dataDir, rendererDir, port })
  try {
    const first = await open('console')
    log(`startup: P8 first start (makes the data dir) ${first.totalMs.toFixed(0)} ms`)
    const runs: Record<'console' | 'floor', Array<{ totalMs: number; serverMs: number; pageMs: number }>> = {
      console: [],
      floor: [],
    }
    for (let i = 0; i < P8_RUNS; i++) {
      for (const kind of i % 2 === 0 ? (['console', 'floor'] as const) : (['floor', 'console'] as const))
        runs[kind].push(await open(kind))
      log(
        `startup: P8 run ${i + 1}/${P8_RUNS}: console ${runs.console.at(-1)!.totalMs.toFixed(0)} ms, floor ${runs.floor.at(-1)!.totalMs.toFixed(0)} ms`,
      )
    }
    const c = spread(runs.console.map((r) => r.totalMs))
    const f = spread(runs.floor.map((r) => r.totalMs))
    const cs = spread(runs.console.map((r) => r.serverMs))
    const cp = spread(runs.console.map((r) => r.pageMs))
    return {
      id: 'P8',
      what: '`serve` start to console interactive',
      figure: `${formatSpread(c, 0, ' ms')} n=${c.n}`,
      peer: `bare server: ${formatSpread(f, 0, ' ms')}`,
      ratio: c.median / f.median,
      ratioText: `+${(c.median - f.median).toFixed(0)} ms`,
      target: `<= ${P8_TARGET_MS} ms`,
      verdict: c.median <= P8_TARGET_MS ? 'pass' : 'fail',
      note: `From spawning \`ob-console serve --port ${port} --json --data-dir D\` (D made by a first, uncounted start: ${first.totalMs.toFixed(0)} ms; the same port every start, each opened as a new tab of one running browser) to the "Main" navigation visible in Chromium: ${formatSpread(cs, 0, ' ms')} until the server printed its URL (the embedded sandbox started), then ${formatSpread(cp, 0, ' ms')} for the page. ${compileCacheNote()}`,
      data: { firstMs: first.totalMs, port, runs },
    }
  } finally {
    await user.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

export const startupBenchmark: Benchmark = {
  ids: ['P7', 'P8'],
  title: 'P7/P8 start-up: help, ais --env local, serve',
  async run({ log }) {
    if (CLI_ROOT === REPO_ROOT && !existsSync(join(REPO_ROOT, 'out', 'cli', 'main.js')))
      throw new Error('out/cli is not built: run "npm run build:cli" first (npm ci does it)')
    // The command line's caches (Node's compile cache, V8's code cache of each command: bin/ob-console.js) in
    // a folder of this run's own, filled by the first, uncounted run of each command as a user's first run
    // fills theirs, and never by another build's runs.
    const cacheHome = mkdtempSync(join(tmpdir(), 'ob-bench-cache-'))
    const userCacheHome = process.env.XDG_CACHE_HOME
    process.env.XDG_CACHE_HOME = cacheHome
    try {
      return await startup(log)
    } finally {
      if (userCacheHome === undefined) delete process.env.XDG_CACHE_HOME
      else process.env.XDG_CACHE_HOME = userCacheHome
      rmSync(cacheHome, { recursive: true, force: true })
    }
  },
}

/** P7-help, P7-ais and P8, in that order. */
async function startup(log: (l: string) => void): Promise<BenchResult[]> {
  const results: BenchResult[] = [await p7Help(log), await p7Ais(log)]
  if (CLI_ROOT !== REPO_ROOT) log(`startup: measuring the command line of ${CLI_ROOT} (OB_BENCH_CLI_ROOT)`)
  const browser = await launchChromium()
  if ('unavailable' in browser) {
    results.push({
      id: 'P8',
      what: '`serve` start to console interactive',
      target: `<= ${P8_TARGET_MS} ms`,
      verdict: 'not measured',
      note: browser.unavailable,
    })
    return results
  }
  const buildDir = mkdtempSync(join(tmpdir(), 'ob-bench-p8-build-'))
  try {
    const { rendererDir } = await buildConsole(buildDir)
    results.push(await p8(browser, rendererDir, log))
  } finally {
    await browser.close()
    rmSync(buildDir, { recursive: true, force: true })
  }
  return results
}
