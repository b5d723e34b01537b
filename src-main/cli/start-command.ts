import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { writeErr } from '../plumbing/terminal-out.ts'

const ROOT = resolve(import.meta.dirname, '../..')

/** Where the Electron binary is, or why there is none (electron downloads it lazily on first use). */
export function electronRuntime(): { path: string } | { missing: string } {
  let pkgDir: string
  try {
    pkgDir = dirname(createRequire(join(ROOT, 'package.json')).resolve('electron/package.json'))
  } catch {
    return { missing: 'the electron package is not installed (run npm ci)' }
  }
  const pathFile = join(pkgDir, 'path.txt')
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH)
    return {
      path: join(
        process.env.ELECTRON_OVERRIDE_DIST_PATH,
        existsSync(pathFile) ? readFileSync(pathFile, 'utf8') : 'electron',
      ),
    }
  if (existsSync(pathFile)) {
    const bin = join(pkgDir, 'dist', readFileSync(pathFile, 'utf8'))
    if (existsSync(bin)) return { path: bin }
  }
  // Not downloaded yet: try once (users' machines can reach the download; this one may not).
  const res = spawnSync(process.execPath, [join(pkgDir, 'install.js')], {
    stdio: 'pipe',
    timeout: 180_000,
    encoding: 'utf8',
  })
  if (res.status === 0 && existsSync(pathFile)) {
    const bin = join(pkgDir, 'dist', readFileSync(pathFile, 'utf8'))
    if (existsSync(bin)) return { path: bin }
  }
  const reason = (res.stderr || res.stdout || res.error?.message || 'the download did not complete')
    .split('\n')
    .find((l) => /error|fail|ENOTFOUND|EAI_AGAIN|ECONNREFUSED/i.test(l))
    ?.trim()
  return { missing: `the Electron binary could not be downloaded${reason ? ` (${reason.slice(0, 160)})` : ''}` }
}

/** `npm start`: build, then the desktop app; where no Electron runtime can be had, the same console in the browser. */
export async function runStartCommand(argv: string[]): Promise<number> {
  const serveArgs = argv.filter((a) => a !== '--no-build')
  // The flags are checked before the build: a bad one builds nothing.
  const { parseServeFlags } = await import('./serve-command.ts')
  try {
    parseServeFlags(serveArgs)
  } catch (err) {
    const { reportError } = await import('./cli-support.ts')
    const { START_USAGE } = await import('./usage.ts')
    return reportError(err, START_USAGE)
  }
  if (!argv.includes('--no-build')) {
    writeErr('Building the console (electron-vite build)...\n')
    const bin = join(ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'electron-vite.cmd' : 'electron-vite')
    const build = spawnSync(bin, ['build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] })
    if (build.status !== 0) {
      writeErr('ob-console: the build failed (see above); fix it, then run npm start again.\n')
      return 1
    }
  }
  const electron = electronRuntime()
  if ('missing' in electron) {
    const { runServeCommand } = await import('./serve-command.ts')
    return runServeCommand(
      serveArgs,
      `No Electron runtime can be had here (${electron.missing}): serving the same console in the browser instead.`,
    )
  }
  const child = spawn(electron.path, [join(ROOT, 'out', 'main', 'index.js')], { stdio: 'inherit', cwd: ROOT })
  return new Promise((r) => child.on('exit', (code) => r(code ?? 0)))
}
