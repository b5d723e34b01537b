import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { DataDirLayout } from '../data-dir.ts'
import { PKI_FILES } from './ecosystem-pki.ts'
import { defaultPkiTemplateDir } from './template-dir.ts'

export { defaultPkiTemplateDir }

/** The files of a template, by the data-directory folder they belong to, with their modes. */
const TEMPLATE_FILES: Array<{ folder: 'pki' | 'auth' | 'directory'; file: string; mode: number }> = [
  { folder: 'pki', file: PKI_FILES.rootCert, mode: 0o644 },
  { folder: 'pki', file: PKI_FILES.rootKey, mode: 0o600 },
  { folder: 'pki', file: PKI_FILES.issuingCert, mode: 0o644 },
  { folder: 'pki', file: PKI_FILES.issuingKey, mode: 0o600 },
  { folder: 'pki', file: PKI_FILES.caBundle, mode: 0o644 },
  { folder: 'pki', file: PKI_FILES.serverCert, mode: 0o644 },
  { folder: 'pki', file: PKI_FILES.serverKey, mode: 0o600 },
  { folder: 'auth', file: 'signing-key.json', mode: 0o600 },
  { folder: 'directory', file: 'signing-key.json', mode: 0o600 },
]

function templatePath(templateDir: string, entry: (typeof TEMPLATE_FILES)[number]): string {
  return join(templateDir, entry.folder, entry.file)
}

/** True when the data directory has none of the template's files yet (a fresh one). */
export function isFreshDataDir(layout: DataDirLayout): boolean {
  return TEMPLATE_FILES.every((e) => !existsSync(join(layout[e.folder], e.file)))
}

/**
 * Copies the template into a fresh data directory. Returns false (and copies nothing) when the data
 * directory is not fresh or the template is missing or incomplete; the sandbox then generates what it
 * lacks, and {@link saveTemplate} can keep the result. Whatever is copied is checked by the normal load
 * path (a foreign, broken or expired file is reported there as in any data directory).
 */
export function seedFromTemplate(layout: DataDirLayout, templateDir: string): boolean {
  if (!isFreshDataDir(layout)) return false
  if (!TEMPLATE_FILES.every((e) => existsSync(templatePath(templateDir, e)))) return false
  for (const e of TEMPLATE_FILES) {
    const to = join(layout[e.folder], e.file)
    copyFileSync(templatePath(templateDir, e), to)
    chmodSync(to, e.mode)
  }
  return true
}

/**
 * Keeps the bank's keys and certificates of a started sandbox as the template, when there is none yet.
 * Written into a temporary folder beside it and renamed into place, so two sandboxes starting at once
 * never leave a half-written template (the second rename loses and is dropped).
 */
export function saveTemplate(layout: DataDirLayout, templateDir: string): void {
  if (existsSync(templateDir)) return
  if (!TEMPLATE_FILES.every((e) => existsSync(join(layout[e.folder], e.file)))) return
  mkdirSync(dirname(templateDir), { recursive: true, mode: 0o700 })
  const tmp = mkdtempSync(`${templateDir}.tmp-`)
  try {
    chmodSync(tmp, 0o700)
    for (const folder of new Set(TEMPLATE_FILES.map((e) => e.folder))) mkdirSync(join(tmp, folder), { mode: 0o700 })
    for (const e of TEMPLATE_FILES) {
      const to = templatePath(tmp, e)
      copyFileSync(join(layout[e.folder], e.file), to)
      chmodSync(to, e.mode)
    }
    renameSync(tmp, templateDir)
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true })
    // Another process put its template in place first: theirs serves as well as ours.
    if (!(existsSync(templateDir) && readdirSync(templateDir).length)) throw err
  }
}
