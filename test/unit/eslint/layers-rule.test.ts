import path from 'node:path'
import { Linter } from 'eslint'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: the rule is plain JavaScript without type declarations
import { layersRule } from '../../../eslint/layers-rule.js'

const ROOT = path.resolve(import.meta.dirname, '../../..')
const linter = new Linter({ configType: 'flat', cwd: ROOT })
const config = [
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { ecmaVersion: 'latest' as const, sourceType: 'module' as const },
    plugins: { ob: { rules: { layers: layersRule } } },
    rules: { 'ob/layers': 'error' as const },
  },
]

/** The layer-rule messages for `import ... from source` written in the file at `file` (relative to the repository root). */
function breaches(file: string, source: string): string[] {
  const messages = linter.verify(`import { x } from '${source}'\nexport const y = x\n`, config, {
    filename: path.join(ROOT, file),
  })
  const fatal = messages.filter((m) => m.fatal)
  if (fatal.length > 0) throw new Error(`the test file did not parse: ${fatal[0]!.message}`)
  return messages.filter((m) => m.ruleId === 'ob/layers').map((m) => m.message)
}

describe('layers rule: the contract is the lowest layer', () => {
  it('lets core import the contract', () => {
    expect(breaches('src-main/core/app-error.ts', '../contract/errors.ts')).toEqual([])
  })

  it('forbids the contract to import core or any other layer of ours', () => {
    expect(breaches('src-main/contract/errors.ts', '../core/app-error.ts')).toEqual([
      expect.stringContaining("Layer 'contract' may not import layer 'core'"),
    ])
    expect(breaches('src-main/contract/api.ts', '../http/http-client.ts')).toHaveLength(1)
    expect(breaches('src-main/contract/api.ts', '../services/ports.ts')).toHaveLength(1)
  })

  it('keeps core below the domains', () => {
    expect(breaches('src-main/core/result.ts', '../http/http-client.ts')).toHaveLength(1)
    expect(breaches('src-main/core/result.ts', '../certificates/import-pem.ts')).toHaveLength(1)
  })

  it('lets every domain import the contract and core', () => {
    expect(breaches('src-main/http/exchange-log.ts', '../contract/errors.ts')).toEqual([])
    expect(breaches('src-main/signing/check.ts', '../core/app-error.ts')).toEqual([])
  })
})

describe('layers rule: the renderer and the local sandbox', () => {
  it('lets the renderer import itself and the contract only', () => {
    expect(breaches('src-renderer/store/inspector-slice.ts', '../../src-main/contract/exchange-summaries.ts')).toEqual(
      [],
    )
    expect(breaches('src-renderer/store/inspector-slice.ts', '../lib/format.ts')).toEqual([])
    expect(breaches('src-renderer/store/inspector-slice.ts', '../../src-main/core/app-error.ts')).toEqual([
      expect.stringContaining('The renderer may import only src-renderer and src-main/contract'),
    ])
  })

  it('lets the outside reach the local sandbox through its index.ts only', () => {
    expect(breaches('src-main/cli/sandbox-command.ts', '../local-sandbox/index.ts')).toEqual([])
    expect(breaches('src-main/cli/sandbox-flags.ts', '../local-sandbox/faults/fault-set.ts')).toEqual([
      expect.stringContaining("Outside 'local-sandbox', import only its public face 'src-main/local-sandbox/index.ts'"),
    ])
    expect(breaches('src-main/cli/usage.ts', '../local-sandbox/defaults.ts')).toHaveLength(1)
    // Layers that may import anything (the shell, src-main/index.ts) go through the face as well.
    expect(breaches('src-main/shell/app.ts', '../local-sandbox/start-sandbox.ts')).toHaveLength(1)
    expect(breaches('src-main/index.ts', './local-sandbox/index.ts')).toEqual([])
    // Inside the sandbox, any module may import any other.
    expect(breaches('src-main/local-sandbox/index.ts', './start-sandbox.ts')).toEqual([])
    expect(breaches('src-main/local-sandbox/start/apps.ts', '../ais/ais-routes.ts')).toEqual([])
  })

  it('keeps the local sandbox apart: not even the contract or core', () => {
    expect(breaches('src-main/local-sandbox/server.ts', './http/interaction-id.ts')).toEqual([])
    expect(breaches('src-main/local-sandbox/server.ts', '../contract/errors.ts')).toHaveLength(1)
    expect(breaches('src-main/local-sandbox/server.ts', '../core/app-error.ts')).toHaveLength(1)
  })
})

describe('layers rule: plumbing shared by the console and the local sandbox', () => {
  it('lets the local sandbox and every console layer import plumbing', () => {
    expect(breaches('src-main/local-sandbox/index.ts', '../plumbing/terminal-out.ts')).toEqual([])
    expect(breaches('src-main/core/logger.ts', '../plumbing/terminal-text.ts')).toEqual([])
    expect(breaches('src-main/cli/cli-support.ts', '../plumbing/terminal-out.ts')).toEqual([])
    expect(breaches('src-main/web-host/web-host.ts', '../plumbing/terminal-text.ts')).toEqual([])
    expect(breaches('src-main/flows/common/bank-id.ts', '../../plumbing/terminal-text.ts')).toEqual([])
  })

  it('keeps plumbing free of anything of ours, and the sandbox still apart from core', () => {
    expect(breaches('src-main/plumbing/terminal-out.ts', '../core/logger.ts')).toEqual([
      expect.stringContaining("Layer 'plumbing' may not import layer 'core'"),
    ])
    expect(breaches('src-main/plumbing/terminal-out.ts', '../contract/errors.ts')).toHaveLength(1)
    expect(breaches('src-main/plumbing/terminal-out.ts', '../local-sandbox/index.ts')).toHaveLength(1)
    expect(breaches('src-main/local-sandbox/index.ts', '../core/logger.ts')).toHaveLength(1)
  })
})

describe('layers rule: packages per layer, and our code only by relative paths', () => {
  it('keeps the contract free of every package', () => {
    expect(breaches('src-main/contract/api.ts', 'ajv')).toEqual([
      expect.stringContaining("Layer 'contract' may not import the package 'ajv'"),
    ])
    expect(breaches('src-main/contract/api.ts', 'node:fs')).toHaveLength(1)
  })

  it('keeps network, server and store packages out of core, certificates, signing and conformance', () => {
    expect(breaches('src-main/core/logger.ts', 'undici')).toEqual([
      expect.stringContaining("Layer 'core' may not import the package 'undici'"),
    ])
    for (const pkg of ['node:https', 'node:net', 'pg', 'koa', '@koa/router', 'oidc-provider', 'electron-store'])
      expect(breaches('src-main/core/logger.ts', pkg), pkg).toHaveLength(1)
    expect(breaches('src-main/certificates/chain.ts', 'undici')).toHaveLength(1)
    expect(breaches('src-main/signing/check.ts', 'node:tls')).toHaveLength(1)
    expect(breaches('src-main/conformance/bank-rules.ts', 'undici/lib/x.js')).toHaveLength(1)
  })

  it('lets those layers use what they need, and the HTTP layer and services reach the network', () => {
    expect(breaches('src-main/core/paths.ts', 'node:fs')).toEqual([])
    expect(breaches('src-main/certificates/chain.ts', '@peculiar/x509')).toEqual([])
    expect(breaches('src-main/signing/check.ts', 'jose')).toEqual([])
    expect(breaches('src-main/conformance/lens-validators.ts', 'ajv')).toEqual([])
    expect(breaches('src-main/http/http-client.ts', 'undici')).toEqual([])
    expect(breaches('src-main/services/persistence/settings-store.ts', 'electron-store')).toEqual([])
  })

  it('refuses our own code imported by an absolute or bare path, which would escape the layer checks', () => {
    for (const source of ['src-main/core/app-error.ts', '/work/x/src-main/http/x.ts', 'src-renderer/lib/format.ts'])
      expect(breaches('src-main/contract/api.ts', source), source).toEqual([
        expect.stringContaining('by a relative path'),
      ])
  })
})
