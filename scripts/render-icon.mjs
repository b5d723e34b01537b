#!/usr/bin/env node
// Renders resources/icon.svg into resources/icon.png (1024 x 1024, transparent corners) with headless
// Chromium (the browser scripts/browser.mjs finds), the picture electron-builder makes every platform's icon from.
// Run it after changing the SVG: node scripts/render-icon.mjs
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from '@playwright/test'
import { findBrowser, NO_BROWSER } from './browser.mjs'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const svg = readFileSync(join(ROOT, 'resources', 'icon.svg'), 'utf8').replace(
  'width="64" height="64"',
  'width="1024" height="1024"',
)
const found = await findBrowser()
if (!found) throw new Error(NO_BROWSER)
const browser = await chromium.launch({
  executablePath: found.executablePath,
  args: ['--no-sandbox'],
})
try {
  const page = await browser.newPage({ viewport: { width: 1024, height: 1024 } })
  await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${svg}</body></html>`)
  await page.locator('svg').screenshot({ path: join(ROOT, 'resources', 'icon.png'), omitBackground: true })
} finally {
  await browser.close()
}
