// Finds the Chromium-family browser that the end-to-end tests, the UI benchmarks and the icon renderer drive,
// the conventional way: $CHROMIUM_PATH, then the browsers Playwright installed (`npx playwright install
// chromium`), then the system's Chrome, Chromium or Edge on Linux, macOS and Windows.
import { accessSync, constants } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

/** The one sentence said when no browser can be found or installed. */
export const NO_BROWSER =
  'No browser for the end-to-end tests: set CHROMIUM_PATH to a Chrome, Chromium or Edge binary, install one ' +
  'with your system (e.g. `sudo apt-get install -y chromium`, or Google Chrome), or run ' +
  '`npx playwright install chromium` where downloads are allowed.'

/** The system's usual places for Chrome, Chromium and Edge, by platform. */
export function systemBrowserPaths(platform = process.platform, env = process.env, home = homedir()) {
  if (platform === 'darwin') {
    const apps = [
      'Google Chrome.app/Contents/MacOS/Google Chrome',
      'Chromium.app/Contents/MacOS/Chromium',
      'Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
      'Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary',
    ]
    return [...apps.map((a) => join('/Applications', a)), ...apps.map((a) => join(home, 'Applications', a))]
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter(Boolean)
    const exes = [
      'Google\\Chrome\\Application\\chrome.exe',
      'Chromium\\Application\\chrome.exe',
      'Microsoft\\Edge\\Application\\msedge.exe',
    ]
    return roots.flatMap((root) => exes.map((exe) => `${root}\\${exe}`))
  }
  return [
    '/usr/bin/chromium',
    '/usr/lib/chromium/chromium',
    '/usr/bin/chromium-browser',
    '/snap/bin/chromium',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/opt/google/chrome/chrome',
    '/usr/bin/microsoft-edge',
    '/usr/bin/microsoft-edge-stable',
  ]
}

function executable(path) {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** Where Playwright keeps the Chromium it installed, or undefined when it has none. */
async function playwrightChromium() {
  try {
    const { chromium } = await import('@playwright/test')
    const path = chromium.executablePath()
    return path && executable(path) ? path : undefined
  } catch {
    return undefined
  }
}

/**
 * The browser to drive: `{ executablePath, source }`. `executablePath` is undefined when Playwright's own
 * installed browser is used (Playwright then picks its headless build). Undefined when none is found.
 * `deps` replaces the look-ups in tests.
 */
export async function findBrowser(deps = {}) {
  const env = deps.env ?? process.env
  const isExecutable = deps.isExecutable ?? executable
  if (env.CHROMIUM_PATH) {
    // An explicit choice is used as it is; a wrong one is said plainly rather than silently replaced.
    return isExecutable(env.CHROMIUM_PATH) ? { executablePath: env.CHROMIUM_PATH, source: 'CHROMIUM_PATH' } : undefined
  }
  const own = await (deps.playwrightChromium ?? playwrightChromium)()
  if (own) return { executablePath: undefined, source: `Playwright's Chromium (${own})` }
  const system = systemBrowserPaths(deps.platform, env, deps.home).find((p) => isExecutable(p))
  return system ? { executablePath: system, source: system } : undefined
}
