import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { _electron, expect, test } from '@playwright/test'
import { ROOT } from './fixtures.ts'

/**
 * The Electron binary's path, or why there is none. `require('electron')` resolves the binary, but where
 * it was never downloaded it first tries to download it (and throws without internet), so the files it
 * reads are checked first.
 */
function electronBinary(): { path?: string; reason?: string } {
  const dir = join(ROOT, 'node_modules/electron')
  const pathTxt = join(dir, 'path.txt')
  if (!process.env.ELECTRON_OVERRIDE_DIST_PATH) {
    if (!existsSync(pathTxt))
      return {
        reason: `no Electron runtime on this machine: ${pathTxt} is missing (the binary was never downloaded), so require('electron') would throw "Electron failed to install correctly"`,
      }
    const bin = join(dir, 'dist', readFileSync(pathTxt, 'utf8').trim())
    if (!existsSync(bin)) return { reason: `no Electron runtime on this machine: ${bin} is missing` }
  }
  try {
    const path = createRequire(join(ROOT, 'package.json'))('electron') as unknown
    if (typeof path !== 'string' || !existsSync(path))
      return { reason: `require('electron') gave ${String(path)}, which is not an executable` }
    return { path }
  } catch (err) {
    return {
      reason: `no Electron runtime on this machine: require('electron') threw "${(err as Error).message.split('\n')[0]}"`,
    }
  }
}

test('desktop shell: the window opens on the console with the preload bridge', async () => {
  const electron = electronBinary()
  test.skip(!electron.path, electron.reason ?? 'no Electron runtime')
  test.skip(!existsSync(join(ROOT, 'out/main/index.js')), 'the app is not built: run npm run build')
  const app = await _electron.launch({
    executablePath: electron.path!,
    args: [join(ROOT, 'out/main/index.js')],
    cwd: ROOT,
  })
  try {
    const window = await app.firstWindow()
    await expect(window.getByRole('navigation', { name: 'Main' })).toBeVisible({ timeout: 30_000 })
    expect(
      await window.evaluate(
        () => typeof (window as unknown as { obConsole?: { onEvent?: unknown } }).obConsole?.onEvent,
      ),
    ).toBe('function')
  } finally {
    await app.close()
  }
})
