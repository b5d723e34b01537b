import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

// electron-builder's own configuration loader, schema check and file matcher: the same code `npm run
// dist` runs, without the Electron runtime.
const require = createRequire(import.meta.url)
/** The parts of electron-builder's configuration these tests read. */
interface BuilderConfig {
  appId: string
  productName: string
  icon: string
  files: unknown
  protocols: unknown
  extraMetadata: { main: string }
  linux: { target: string[]; desktop: { entry: Record<string, string> } }
  mac: { target: string[] }
  win: { target: string[] }
  nsis: { include: string }
}
const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
  getConfig(projectDir: string, configPath: string | null, fromOptions: null): Promise<BuilderConfig>
  validateConfiguration(config: BuilderConfig, logger: unknown): Promise<void>
}
interface Matcher {
  createFilter(): (file: string, stat: { isDirectory(): boolean }) => boolean
}
const { getFileMatchers } = require('app-builder-lib/out/fileMatcher.js') as {
  getFileMatchers(
    config: BuilderConfig,
    name: 'files',
    defaultDestination: string,
    options: {
      macroExpander: (p: string) => string
      customBuildOptions: unknown
      globalOutDir: string
      defaultSrc: string
    },
  ): Matcher[] | null
}
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown }

const REPO = resolve(import.meta.dirname, '../../..')
const temps: string[] = []
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true })
})

/** Which of `files` (paths relative to a project root) the configuration's `files` patterns pack. */
function packed(config: BuilderConfig, files: string[]): string[] {
  const root = mkdtempSync(join(tmpdir(), 'ob-pack-'))
  temps.push(root)
  for (const f of files) {
    mkdirSync(dirname(join(root, f)), { recursive: true })
    writeFileSync(join(root, f), 'x')
  }
  const matchers = getFileMatchers(config, 'files', '/app', {
    macroExpander: (p) => p,
    customBuildOptions: config.linux,
    globalOutDir: join(root, 'dist'),
    defaultSrc: root,
  })
  expect(matchers).toHaveLength(1)
  const filter = matchers![0]!.createFilter()
  const isDir = { isDirectory: () => true }
  const isFile = { isDirectory: () => false }
  // A file is packed when its folders are walked into and the file itself passes.
  return files
    .filter((f) => {
      const parts = f.split('/')
      for (let i = 1; i < parts.length; i++) if (!filter(join(root, ...parts.slice(0, i)), isDir)) return false
      return filter(join(root, f), isFile)
    })
    .map((f) => relative(root, join(root, f)).split(sep).join('/'))
}

describe('electron-builder.json', async () => {
  const config = await getConfig(REPO, null, null)

  it('is valid for electron-builder, with the app id, product name, icon and a target per platform', async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined()
    expect(config.appId).toBe('com.obconsole.desktop')
    expect(config.productName).toBe('OB Console')
    expect(readFileSync(join(REPO, config.icon)).subarray(1, 4).toString()).toBe('PNG')
    expect(config.linux.target).toEqual(['AppImage', 'deb'])
    expect(config.mac.target).toEqual(['dmg'])
    expect(config.win.target).toEqual(['nsis'])
    expect(config.extraMetadata.main).toBe('out/main/index.js')
  })

  it('registers ob-console:// on every platform: protocols (macOS, Linux), the desktop entry, the NSIS include', () => {
    expect(config.protocols).toEqual([{ name: 'OB Console redirect', schemes: ['ob-console'] }])
    expect(config.linux.desktop.entry.MimeType).toBe('x-scheme-handler/ob-console;')
    const nsh = readFileSync(join(REPO, config.nsis.include), 'utf8')
    expect(nsh).toContain('!macro customInstall')
    expect(nsh).toContain('WriteRegStr SHCTX "Software\\Classes\\ob-console" "URL Protocol" ""')
    expect(nsh).toContain('DeleteRegKey SHCTX "Software\\Classes\\ob-console"')
  })

  it('packs the built app (main, preload, renderer, the CLI with the sandbox, the built validators, the sandbox seed data) and never a key, a kit or a data dir', () => {
    const wanted = [
      'package.json',
      'out/main/index.js',
      'out/preload/index.cjs',
      'out/renderer/index.html',
      'out/renderer/assets/index-abc.js',
      'out/renderer/favicon.svg',
      'out/cli/main.js',
      'out/cli/chunk-X.js',
      'out/cli/commands.cjs',
      'out/validators/lens-ais.cjs',
      'out/validators/sandbox-requests.cjs',
      'out/validators/records.cjs',
      'out/validators/answer-shapes.cjs',
      'resources/local-sandbox/psus.json',
      'resources/local-sandbox/products.json',
    ]
    const unwanted = [
      'out/cli/main.js.map',
      'out/cli/commands.cjs.map',
      // esbuild's account of the build, for the tests.
      'out/build-meta/commands.json',
      // V8's code cache of a module is made by the building Node's V8, which Electron's is not.
      'out/validators/lens-ais.cjs.v8cache',
      'out/renderer/leak.pem',
      'out/main/root-ca.key',
      'out/main/identity.p12',
      '.data/sandbox/pki/root-ca.key',
      '.data/my-tpp/signing.key',
      '.sandbox/auth/signing-key.json',
      'kit/transport.key',
      'tpp/ssa.jwt',
      'out/cli/.data/x.json',
      'src-main/index.ts',
      'test/unit/a.test.ts',
      'README.md',
      'resources/icon.svg',
      'docs/architecture.md',
    ]
    expect(packed(config, [...wanted, ...unwanted]).sort()).toEqual([...wanted].sort())
  })
})
