/**
 * The container files checked as far as this machine can without a container engine: the Dockerfile by
 * dockerfile-utils's linter (every rule an error) and the project's own rules (a hadolint-like subset:
 * pinned base images, a non-root user, exec-form commands, no ADD, nothing from the build context in the
 * image); deploy/haproxy.cfg by HAProxy itself (`haproxy -c`); compose.yaml against both.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { ValidationSeverity, validate } from 'dockerfile-utils'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'
import { runtimeStage, stages } from './support/dockerfile-stages.ts'
import { HAPROXY } from './support/haproxy.ts'

const REPO = resolve(import.meta.dirname, '../../..')
const read = (file: string) => readFileSync(join(REPO, file), 'utf8')

describe('Dockerfile', () => {
  const text = read('Dockerfile')
  const all = stages(text)
  const runtime = runtimeStage(text)

  it("passes dockerfile-utils's linter with every rule an error", () => {
    const error = ValidationSeverity.ERROR
    const diagnostics = validate(text, {
      deprecatedMaintainer: error,
      directiveCasing: error,
      emptyContinuationLine: error,
      instructionCasing: error,
      instructionCmdMultiple: error,
      instructionEntrypointMultiple: error,
      instructionHealthcheckMultiple: error,
      instructionJSONInSingleQuotes: error,
      instructionWorkdirRelative: error,
    })
    expect(diagnostics.map((d) => `line ${d.range.start.line + 1}: ${d.message}`)).toEqual([])
  })

  it('builds on a pinned node:24-slim in both stages, without ADD', () => {
    expect([...all.keys()]).toEqual(['build', 'runtime'])
    for (const instructions of all.values()) {
      expect(instructions[0]!.getArguments()[0]!.getValue()).toBe('node:24-slim')
      expect(instructions.filter((i) => i.getKeyword() === 'ADD')).toEqual([])
    }
  })

  it('installs with npm ci and no Electron binary, and builds the bundle and its runtime packages', () => {
    const build = all.get('build')!
    const env = build.filter((i) => i.getKeyword() === 'ENV').map((i) => i.getArgumentsContent())
    expect(env).toContain('ELECTRON_SKIP_BINARY_DOWNLOAD=1')
    const runs = build.filter((i) => i.getKeyword() === 'RUN').map((i) => i.getArgumentsContent() ?? '')
    expect(runs.some((r) => /^npm ci\b/.test(r))).toBe(true)
    expect(runs.some((r) => r.includes('scripts/build-cli.mjs') && r.includes('scripts/runtime-modules.mjs'))).toBe(
      true,
    )
  })

  it('runs the bundle as a non-root user, in exec form, with the three ports and a health check', () => {
    expect(runtime.user).toBeDefined()
    expect(['root', '0']).not.toContain(runtime.user)
    expect(runtime.entrypoint).toEqual(['node', 'bin/ob-console.js'])
    expect(runtime.cmd.slice(0, 3)).toEqual(['sandbox', '--bind', '0.0.0.0'])
    expect(runtime.healthcheck[0]).toBe('node')
    const expose = all.get('runtime')!.filter((i) => i.getKeyword() === 'EXPOSE')
    expect(expose.flatMap((i) => i.getArguments().map((a) => a.getValue()))).toEqual(['8443', '8444', '8445'])
    // The image copies from the build stage only: nothing of the build context (no key, no data) reaches it.
    expect(runtime.copies.filter((c) => c.from !== 'build')).toEqual([])
  })

  it('has a .dockerignore that keeps sandbox data and keys out of the build context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
    expect(ignored).toEqual(
      expect.arrayContaining(['node_modules', 'out', '.sandbox', '**/*.pem', '**/*.key', 'deploy/secrets', '.env']),
    )
  })
})

describe('deploy/haproxy.cfg and compose.yaml', () => {
  const compose = parse(read('compose.yaml'), { merge: true }) as {
    services: Record<string, { command?: string[]; environment?: Record<string, string>; volumes?: string[] }>
  }
  const sandboxes = Object.keys(compose.services).filter((s) => s.startsWith('sandbox-'))
  const haproxyCfg = read('deploy/haproxy.cfg')

  it('is a valid HAProxy configuration (names of compose services left unresolved here)', () => {
    expect(HAPROXY, 'HAProxy is not installed (Debian or Ubuntu: sudo apt-get install -y haproxy)').toBeDefined()
    const r = spawnSync(HAPROXY!, ['-c', '-f', join(REPO, 'deploy/haproxy.cfg')], { encoding: 'utf8' })
    expect(r.status, r.stderr).toBe(0)
    const warnings = r.stderr.split('\n').filter((l) => l.includes('[WARNING]'))
    // Outside compose the service names do not resolve (init-addr none keeps HAProxy up): the only warnings.
    for (const w of warnings) expect(w).toMatch(/could not resolve address 'sandbox-\d+'/)
  })

  it('passes TLS through: TCP mode, no certificate on any bind, round robin over every instance on each port', () => {
    expect(haproxyCfg).toMatch(/^defaults\n(?:.*\n)*?\s+mode tcp$/m)
    expect(haproxyCfg).not.toMatch(/^\s*mode http/m)
    for (const bind of haproxyCfg.match(/^\s*bind .*$/gm)!) expect(bind).not.toMatch(/\b(ssl|crt)\b/)
    for (const port of [8443, 8444, 8445]) {
      expect(haproxyCfg).toMatch(new RegExp(`^\\s*bind :${port}$`, 'm'))
      for (const s of sandboxes) expect(haproxyCfg).toMatch(new RegExp(`^\\s*server ${s} ${s}:${port}$`, 'm'))
    }
    expect(haproxyCfg.match(/^\s*balance roundrobin$/gm)).toHaveLength(3)
  })

  it('starts at least two instances on one store with the same public host and port, and the admin token', () => {
    expect(sandboxes.length).toBeGreaterThanOrEqual(2)
    const commands = sandboxes.map((s) => compose.services[s]!.command!)
    for (const c of commands) {
      expect(c).toEqual(commands[0])
      for (const flag of ['--public-host', '--public-port', '--admin-token-file', '--bind']) expect(c).toContain(flag)
    }
    const stores = sandboxes.map((s) => compose.services[s]!.environment!.OB_SANDBOX_STORE)
    expect(new Set(stores).size).toBe(1)
    expect(stores[0]).toMatch(/^postgres:\/\/[^:@]+@postgres:5432\//)
    expect(compose.services.haproxy!.volumes).toContain('./deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro')
  })
})
