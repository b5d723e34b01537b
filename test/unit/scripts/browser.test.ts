import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findBrowser, NO_BROWSER, systemBrowserPaths } from '../../../scripts/browser.mjs'

const none = async () => undefined

describe('findBrowser', () => {
  it('takes CHROMIUM_PATH first, even when Playwright and the system have browsers', async () => {
    const found = await findBrowser({
      env: { CHROMIUM_PATH: '/opt/my/chrome' },
      isExecutable: () => true,
      playwrightChromium: async () => '/home/u/.cache/ms-playwright/chromium/chrome',
    })
    expect(found).toEqual({ executablePath: '/opt/my/chrome', source: 'CHROMIUM_PATH' })
  })

  it('says nothing was found when CHROMIUM_PATH names no executable, instead of picking another browser', async () => {
    const found = await findBrowser({ env: { CHROMIUM_PATH: '/nowhere' }, isExecutable: (p) => p !== '/nowhere' })
    expect(found).toBeUndefined()
  })

  it("uses Playwright's installed Chromium before the system's, leaving the executable to Playwright", async () => {
    const found = await findBrowser({
      env: {},
      isExecutable: () => true,
      playwrightChromium: async () => '/home/u/.cache/ms-playwright/chromium-1200/chrome-linux/chrome',
    })
    expect(found?.executablePath).toBeUndefined()
    expect(found?.source).toContain('ms-playwright')
  })

  it.each([
    ['linux', '/usr/bin/google-chrome'],
    ['darwin', '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge'],
    ['win32', 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe'],
  ] as const)("finds the system's browser on %s", async (platform, path) => {
    const found = await findBrowser({
      env: { PROGRAMFILES: 'C:\\Program Files' },
      platform,
      home: '/home/u',
      isExecutable: (p) => p === path,
      playwrightChromium: none,
    })
    expect(found).toEqual({ executablePath: path, source: path })
  })

  it('finds nothing where there is nothing, and the sentence names the three ways to get a browser', async () => {
    const found = await findBrowser({ env: {}, platform: 'linux', isExecutable: () => false, playwrightChromium: none })
    expect(found).toBeUndefined()
    expect(NO_BROWSER).toMatch(/CHROMIUM_PATH/)
    expect(NO_BROWSER).toMatch(/apt-get install -y chromium/)
    expect(NO_BROWSER).toMatch(/npx playwright install chromium/)
  })

  it("lists Debian's Chromium first on Linux and the per-user Applications folder on macOS", () => {
    expect(systemBrowserPaths('linux')[0]).toBe('/usr/bin/chromium')
    expect(systemBrowserPaths('darwin', {}, '/Users/u')).toContain(
      '/Users/u/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    )
  })
})

describe('scripts/find-chromium.js', () => {
  it('stops with one sentence naming the three ways when CHROMIUM_PATH names no browser', () => {
    const run = spawnSync(process.execPath, [join(import.meta.dirname, '../../../scripts/find-chromium.js')], {
      env: { ...process.env, CHROMIUM_PATH: '/nowhere/chrome', OB_NO_BROWSER_INSTALL: '1' },
      encoding: 'utf8',
    })
    expect(run.status).toBe(1)
    expect(run.stderr.trim().split('\n')).toHaveLength(1)
    expect(run.stderr).toContain('/nowhere/chrome')
    expect(run.stderr).toContain(NO_BROWSER)
  })
})
