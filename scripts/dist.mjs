#!/usr/bin/env node
// `npm run dist`: builds the console (npm run build), then its installers for the current platform with
// electron-builder (electron-builder.json: AppImage and deb on Linux, dmg on macOS, nsis on Windows) into
// dist/. electron-builder needs the Electron runtime of the target platform: the one `npm ci` put in
// node_modules/electron/dist when it matches, else a download. Where it cannot be had, or Node is too old
// for electron-builder, this says so in one sentence and exits 1; electron-builder's full output is kept in
// dist/electron-builder.log.
import { spawn, spawnSync } from 'node:child_process'
import { createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(join(ROOT, 'package.json'))
const say = (sentence) => process.stderr.write(`npm run dist: ${sentence}\n`)

const [major, minor] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 12)) {
  say(
    `electron-builder needs Node 22.12 or later and this is Node ${process.versions.node}; run it with Node 24 LTS, the recommended version.`,
  )
  process.exit(1)
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
if (
  spawnSync(npm, ['run', 'build'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' }).status !== 0
) {
  say('the build (npm run build) failed, see above; nothing was packaged.')
  process.exit(1)
}

// The runtime npm ci installed, when it is there: no download then.
const electronDir = dirname(require.resolve('electron/package.json'))
const electronVersion = JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8')).version
const installed = join(electronDir, 'dist')
const args = [
  '--publish',
  'never',
  ...(existsSync(join(electronDir, 'path.txt')) && existsSync(installed) ? [`--config.electronDist=${installed}`] : []),
]

mkdirSync(join(ROOT, 'dist'), { recursive: true })
const logPath = join(ROOT, 'dist', 'electron-builder.log')
const log = createWriteStream(logPath)
const cli = join(dirname(require.resolve('electron-builder/package.json')), 'cli.js')
const child = spawn(process.execPath, [cli, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
let output = ''
for (const stream of [child.stdout, child.stderr]) {
  stream.on('data', (d) => {
    log.write(d)
    output = (output + d.toString()).slice(-20_000)
  })
}
const code = await new Promise((resolve) => child.on('close', resolve))
log.end()
if (code === 0) {
  process.stdout.write(
    `npm run dist: installers for ${process.platform}-${process.arch} are in dist/ (electron-builder's output: dist/electron-builder.log).\n`,
  )
  process.exit(0)
}
const network =
  /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|getaddrinfo|socket hang up|unable to get local issuer|status code 40[34]|cannot download|download failed/i
if (network.test(output)) {
  say(
    `the Electron ${electronVersion} runtime for ${process.platform}-${process.arch} could not be downloaded (no network access to Electron's releases from here), so no installer was built; run npm run dist where it can be downloaded (details: dist/electron-builder.log).`,
  )
} else {
  const last = output
    .trim()
    .split('\n')
    .filter((l) => /error|⨯/i.test(l))
    .at(-1)
    ?.trim()
  say(
    `electron-builder failed${last ? ` (${last.slice(0, 200)})` : ''}; its full output is in dist/electron-builder.log.`,
  )
}
process.exit(1)
