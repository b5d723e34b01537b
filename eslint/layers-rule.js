// ESLint rule enforcing the dependency rules of docs/architecture.md: which layer may import which.
// It resolves every relative import against the importing file, so `../../http/x` is caught wherever it sits.
import path from 'node:path'

const ROOT = path.resolve(import.meta.dirname, '..')

/**
 * Layers of src-main and which other layers each may import (itself is always allowed).
 * The contract is the lowest layer: it imports nothing of ours, and every other layer may import it.
 */
const MAIN_ALLOWED = {
  // Plumbing (terminal text, writing to stdout/stderr) that the console and the local sandbox both use: it holds
  // no rule of the bank or of the console, and imports nothing of ours.
  plumbing: [],
  contract: [],
  core: ['contract', 'plumbing'],
  certificates: ['contract', 'core', 'plumbing'],
  signing: ['contract', 'core', 'plumbing'],
  http: ['contract', 'core', 'plumbing'],
  // The bank-conformance lens: the official OB v4.0 schemas and the bank's rules, checked against answers.
  conformance: ['contract', 'core', 'plumbing'],
  flows: ['contract', 'core', 'certificates', 'signing', 'http', 'plumbing'],
  services: ['contract', 'core', 'certificates', 'signing', 'http', 'flows', 'conformance', 'plumbing'],
  'web-host': ['contract', 'core', 'services', 'plumbing'],
  cli: [
    'plumbing',
    'contract',
    'core',
    'certificates',
    'signing',
    'http',
    'flows',
    'services',
    'web-host',
    'local-sandbox',
    'conformance',
  ],
  // The local sandbox shares no rule with the console (only the spec), and only plumbing as code.
  'local-sandbox': ['plumbing'],
  shell: ['*'],
  'index.ts': ['*'],
}

/**
 * Layers that the rest of src-main may reach through one module only, their public face: what it re-exports is
 * what the outside may use, and everything else inside stays free to change.
 */
const PUBLIC_FACES = {
  'local-sandbox': 'src-main/local-sandbox/index.ts',
}

/** Packages only some layers may use. */
const ELECTRON_LAYERS = new Set(['shell', 'index.ts'])
const RENDERER_FORBIDDEN = [
  /^electron(\/|$)/,
  /^node:/,
  /^undici(\/|$)/,
  /^jose(\/|$)/,
  /^oidc-provider(\/|$)/,
  /^koa(\/|$)/,
  /^(fs|path|crypto|child_process|os|http|https|net|tls)$/,
]

/** Network, server and store packages: the layers that hold rules and data shapes reach no network. */
const IO_PACKAGES = [
  /^undici(\/|$)/,
  /^node:(http|https|http2|net|tls|dgram|child_process)$/,
  /^(pg|koa|oidc-provider|electron-store|conf)(\/|$)/,
  /^@koa\//,
]

/**
 * Packages a layer may not import (beyond electron, which only the shell may). The contract is pure types and
 * imports no package at all; core, certificates, signing and conformance do no I/O over the network.
 */
const LAYER_PACKAGE_BANS = {
  contract: { banned: [/.*/], why: 'the contract is pure types shared with the renderer: it imports no package' },
  core: { banned: IO_PACKAGES, why: 'core holds errors, results, clock and redaction: no network, server or store' },
  certificates: { banned: IO_PACKAGES, why: 'certificates parse and check; the HTTP engine does the I/O' },
  signing: { banned: IO_PACKAGES, why: 'signing builds and checks JWTs; the HTTP engine does the I/O' },
  conformance: { banned: IO_PACKAGES, why: 'the lens checks answers it is given; it fetches nothing' },
}

function layerOf(absFile) {
  const rel = path.relative(ROOT, absFile).split(path.sep)
  if (rel[0] === 'src-main') return { side: 'main', layer: rel.length === 2 ? rel[1] : rel[1] }
  if (rel[0] === 'src-renderer') return { side: 'renderer', layer: 'renderer' }
  return { side: 'other', layer: rel[0] }
}

export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Enforce the layer dependency rules of docs/architecture.md' },
    schema: [],
  },
  create(context) {
    const file = context.filename
    const from = layerOf(file)
    if (from.side === 'other') return {}
    function check(node, source) {
      if (typeof source !== 'string') return
      // An import of our own code by any other path than a relative one escapes the checks below.
      if (path.isAbsolute(source) || /^(src-main|src-renderer)(\/|$)/.test(source) || source.startsWith('file:')) {
        context.report({
          node,
          message: `Import '${source}' by a relative path ('./…' or '../…'): the layer rule checks relative imports of our code.`,
        })
        return
      }
      if (source.startsWith('.')) {
        const target = layerOf(path.resolve(path.dirname(file), source))
        if (from.side === 'renderer') {
          if (target.side === 'renderer') return
          if (target.side === 'main' && target.layer === 'contract') return
          context.report({
            node,
            message: `The renderer may import only src-renderer and src-main/contract, not '${source}'.`,
          })
          return
        }
        if (target.side === 'renderer') {
          context.report({ node, message: `src-main must not import the renderer ('${source}').` })
          return
        }
        if (target.side !== 'main' || target.layer === from.layer) return
        const face = PUBLIC_FACES[target.layer]
        if (face && path.resolve(path.dirname(file), source) !== path.join(ROOT, face)) {
          context.report({
            node,
            message: `Outside '${target.layer}', import only its public face '${face}', not '${source}': export what you need from there. See docs/architecture.md, dependency rules.`,
          })
          return
        }
        const allowed = MAIN_ALLOWED[from.layer]
        if (!allowed) {
          context.report({
            node,
            message: `Unknown layer '${from.layer}': add it to eslint/layers-rule.js and docs/architecture.md.`,
          })
          return
        }
        if (allowed.includes('*') || allowed.includes(target.layer)) return
        context.report({
          node,
          message: `Layer '${from.layer}' may not import layer '${target.layer}' ('${source}'). See docs/architecture.md, dependency rules.`,
        })
        return
      }
      if (from.side === 'renderer') {
        if (RENDERER_FORBIDDEN.some((re) => re.test(source))) {
          context.report({
            node,
            message: `The renderer must not import '${source}': it reaches the main side only through src-renderer/api and the contract.`,
          })
        }
        return
      }
      if (/^electron(\/|$)/.test(source) && !ELECTRON_LAYERS.has(from.layer)) {
        context.report({
          node,
          message: `Only src-main/shell and src-main/index.ts may import 'electron'; inject an Electron capability through a port instead.`,
        })
        return
      }
      const ban = LAYER_PACKAGE_BANS[from.layer]
      if (ban && ban.banned.some((re) => re.test(source))) {
        context.report({
          node,
          message: `Layer '${from.layer}' may not import the package '${source}': ${ban.why}. See docs/architecture.md, dependency rules.`,
        })
      }
    }
    return {
      ImportDeclaration(node) {
        check(node, node.source.value)
      },
      ExportNamedDeclaration(node) {
        if (node.source) check(node, node.source.value)
      },
      ExportAllDeclaration(node) {
        check(node, node.source.value)
      },
      ImportExpression(node) {
        if (node.source.type === 'Literal') check(node, node.source.value)
      },
    }
  },
}
