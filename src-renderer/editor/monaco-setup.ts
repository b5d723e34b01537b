/**
 * Monaco, offline: the editor API, its features, the JSON language and their workers bundled by Vite
 * (no CDN), handed to @monaco-editor/react. Themes are registered once and follow the theme in force (the
 * OS colour scheme unless the user chose one, src-renderer/lib/theme.ts).
 * Imported only by the lazily loaded code view, so none of this is in the initial bundle.
 */
import * as monaco from 'monaco-editor/editor/editor.api'
import 'monaco-editor/features/register.all'
import 'monaco-editor/languages/features/json/register'
import EditorWorker from 'monaco-editor/editor/editor.worker?worker'
import JsonWorker from 'monaco-editor/language/json/json.worker?worker'
import { loader } from '@monaco-editor/react'
import { effectiveTheme, onThemeChange } from '../lib/theme.ts'

declare global {
  interface Window {
    MonacoEnvironment?: { getWorker(workerId: string, label: string): Worker }
  }
}

self.MonacoEnvironment = {
  getWorker: (_id: string, label: string) => (label === 'json' ? new JsonWorker() : new EditorWorker()),
}
loader.config({ monaco })

monaco.editor.defineTheme('ob-light', {
  base: 'vs',
  inherit: true,
  rules: [
    { token: 'string.key.json', foreground: '0550ae' },
    { token: 'string.value.json', foreground: '0a3069' },
  ],
  colors: { 'editor.background': '#fbfcfd' },
})
monaco.editor.defineTheme('ob-dark', {
  base: 'vs-dark',
  inherit: true,
  rules: [
    { token: 'string.key.json', foreground: '79c0ff' },
    { token: 'string.value.json', foreground: 'a5d6ff' },
  ],
  colors: { 'editor.background': '#0d1117' },
})

/** The theme in force now: the user's choice, or the OS colour scheme. */
export function currentTheme(): string {
  return effectiveTheme() === 'dark' ? 'ob-dark' : 'ob-light'
}
onThemeChange((theme) => monaco.editor.setTheme(theme === 'dark' ? 'ob-dark' : 'ob-light'))

export { monaco }
