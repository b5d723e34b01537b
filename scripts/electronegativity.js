#!/usr/bin/env node
// Runs Electronegativity (@doyensec/electronegativity) over the console's sources and prints every
// finding. Fails (exit 1) on any HIGH finding, on any MEDIUM finding that docs/security.md does not
// justify (the JUSTIFIED list below mirrors its table), and on a file the tool could not parse (a file
// it skips is a file it did not check).
//
//   node scripts/electronegativity.js            # the sources: src-main and src-renderer, as one app
//   node scripts/electronegativity.js DIR...     # other directories instead (the tool's parser cannot read
//                                                # the ES2022 bundles in out/: it reports them unparsed)
//
// The sources are copied into one temporary directory and scanned in one run, so the tool's global
// checks (navigation limits, permission handler, CSP) see the main side and the renderer together.
// The check that looks up Electron releases on the network (AvailableSecurityFixesGlobalCheck) is
// left out: the test run is offline, and keeping Electron current is a release step of its own.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, relative, resolve, sep } from 'node:path'

const require = createRequire(import.meta.url)
const root = resolve(import.meta.dirname, '..')

/** MEDIUM findings that docs/security.md ("Electronegativity findings") explains; `check file` → why. */
export const JUSTIFIED = new Map([
  [
    'PRELOAD_JS_CHECK src-main/shell/main-window.ts',
    'the preload exposes one function per contract call and nothing of Electron or Node',
  ],
  [
    'OPEN_EXTERNAL_JS_CHECK src-main/shell/main-window.ts',
    'only http(s) URLs without credentials, decided by shell/external-links.ts',
  ],
  [
    'PROTOCOL_HANDLER_JS_CHECK src-main/shell/deeplink.ts',
    'ob-console:// is the registered redirect URI; its URLs only reach flows waiting for their state',
  ],
])

const OFFLINE_EXCLUDED = ['AvailableSecurityFixesGlobalCheck']

const SOURCES = ['src-main', 'src-renderer']

async function main() {
  const dirs = process.argv.slice(2).length ? process.argv.slice(2) : SOURCES
  const electronVersion = JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')).version
  // The tool prints a line when it cannot fetch its translations (it tries for one second); quiet it.
  const log = console.log
  console.log = (...args) => {
    if (!String(args[0]).startsWith('Could not retrieve updated translations')) log(...args)
  }
  const run = require('@doyensec/electronegativity')
  const findings = []
  const problems = []
  const missing = dirs.filter((d) => !existsSync(resolve(root, d)))
  for (const d of missing) problems.push(`${d}: no such directory${d === 'out' ? ' (run npm run build first)' : ''}`)
  const scratch = mkdtempSync(join(tmpdir(), 'ob-electronegativity-'))
  try {
    for (const d of dirs.filter((x) => !missing.includes(x)))
      cpSync(resolve(root, d), join(scratch, d), { recursive: true })
    const result = await run({
      input: scratch,
      electronVersionOverride: electronVersion,
      excludeFromScan: OFFLINE_EXCLUDED,
      isRelative: false,
      parserPlugins: [],
    })
    const name = (file) => (file.startsWith(scratch + sep) ? relative(scratch, file).split(sep).join('/') : file)
    for (const e of result.errors) if (!e.tolerable) problems.push(`could not parse ${name(e.file)}: ${e.message}`)
    for (const i of result.issues) {
      findings.push({
        check: i.id,
        severity: i.severity.name,
        confidence: i.confidence.name,
        file: name(i.file),
        line: i.location?.line,
        column: i.location?.column,
        description: i.description,
        manualReview: i.manualReview === true,
      })
    }
  } finally {
    console.log = log
    rmSync(scratch, { recursive: true, force: true })
  }

  const order = { HIGH: 0, MEDIUM: 1, LOW: 2, INFORMATIONAL: 3 }
  findings.sort(
    (a, b) =>
      order[a.severity] - order[b.severity] ||
      a.check.localeCompare(b.check) ||
      a.file.localeCompare(b.file) ||
      a.line - b.line,
  )
  const failures = []
  for (const f of findings) {
    const key = `${f.check} ${f.file}`
    let note = ''
    if (f.severity === 'HIGH') {
      failures.push(f)
      note = '  <- HIGH: fix it'
    } else if (f.severity === 'MEDIUM') {
      if (JUSTIFIED.has(key)) note = `  (justified: ${JUSTIFIED.get(key)})`
      else {
        failures.push(f)
        note =
          '  <- MEDIUM not justified in docs/security.md: fix it or justify it there and in scripts/electronegativity.js'
      }
    }
    console.log(`${f.severity.padEnd(7)} ${f.check} ${f.file}:${f.line}:${f.column} ${f.description}${note}`)
  }
  const count = (s) => findings.filter((f) => f.severity === s).length
  console.log(
    `Electronegativity over ${dirs.join(', ')} (Electron ${electronVersion}): ${count('HIGH')} high, ${count('MEDIUM')} medium, ${count('LOW')} low, ${count('INFORMATIONAL')} informational.`,
  )
  for (const p of problems) console.error(`electronegativity: ${p}`)
  if (failures.length || problems.length) {
    console.error(`electronegativity: FAILED (${failures.length} finding(s) to fix, ${problems.length} problem(s)).`)
    process.exit(1)
  }
}

main().catch((err) => {
  console.error(`electronegativity: the run failed: ${err?.stack ?? err}`)
  process.exit(1)
})
