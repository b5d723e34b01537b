import { readFile, stat } from 'node:fs/promises'
import { extname, join, normalize, resolve, sep } from 'node:path'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.ttf': 'font/ttf',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
}

export interface StaticFile {
  body: Buffer
  contentType: string
  /** Hashed assets never change; index.html always revalidates. */
  immutable: boolean
}

/**
 * Resolves a URL path inside the built renderer folder and reads it. Paths that escape the folder are
 * refused; unknown paths without an extension fall back to index.html (the renderer routes itself).
 */
export async function readStatic(root: string, urlPath: string): Promise<StaticFile | undefined> {
  const base = resolve(root)
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0]!)
  } catch {
    return undefined
  }
  const target = normalize(join(base, decoded))
  if (target !== base && !target.startsWith(base + sep)) return undefined
  let file = target
  const info = await stat(file).catch(() => undefined)
  if (!info || info.isDirectory()) {
    if (extname(decoded) && !info?.isDirectory()) return undefined
    file = join(base, 'index.html')
  }
  const body = await readFile(file).catch(() => undefined)
  if (!body) return undefined
  const ext = extname(file)
  return { body, contentType: TYPES[ext] ?? 'application/octet-stream', immutable: file.includes(`${sep}assets${sep}`) }
}
