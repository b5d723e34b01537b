/**
 * A read-only (or editable) Monaco view of JSON or text: folding, search (Ctrl/Cmd+F), and formatting
 * done by the JSON worker on demand, so a large body is shown at once and never pretty-printed on the
 * main thread first. Loaded lazily (see ./lazy.tsx).
 */
import './monaco-setup.ts'
import Editor, { type OnMount } from '@monaco-editor/react'
import { useCallback, useRef, useState } from 'react'
import { currentTheme, type monaco } from './monaco-setup.ts'

export interface CodeViewProps {
  value: string
  language?: 'json' | 'plaintext'
  /** Pixel height; default grows with the content up to 480. */
  height?: number
  ariaLabel: string
  readOnly?: boolean
  onChange?: (value: string) => void
  /** Offer a Format button (JSON formatted by the worker). */
  formattable?: boolean
  wordWrap?: boolean
}

function autoHeight(value: string): number {
  let lines = 1
  for (let i = 0; i < value.length && lines < 40; i++) if (value.charCodeAt(i) === 10) lines++
  return Math.min(480, Math.max(60, lines * 19 + 12))
}

export default function CodeView({
  value,
  language = 'json',
  height,
  ariaLabel,
  readOnly = true,
  onChange,
  formattable = false,
  wordWrap = false,
}: CodeViewProps) {
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null)
  const [formatting, setFormatting] = useState(false)
  const onMount: OnMount = useCallback((editor) => {
    editorRef.current = editor
  }, [])

  const format = useCallback(async () => {
    const editor = editorRef.current
    if (!editor) return
    setFormatting(true)
    editor.updateOptions({ readOnly: false })
    try {
      await editor.getAction('editor.action.formatDocument')?.run()
    } finally {
      editor.updateOptions({ readOnly })
      setFormatting(false)
    }
  }, [readOnly])

  return (
    <div className="code-view" aria-label={ariaLabel} role="region" data-language={language}>
      {formattable ? (
        <div className="code-toolbar">
          <button type="button" className="secondary small" onClick={format} disabled={formatting}>
            {formatting ? 'Formatting…' : 'Format JSON'}
          </button>
          <span className="muted small">Ctrl/Cmd+F to search, fold with the gutter arrows</span>
        </div>
      ) : null}
      <Editor
        value={value}
        language={language}
        height={height ?? autoHeight(value)}
        theme={currentTheme()}
        onMount={onMount}
        onChange={(v) => onChange?.(v ?? '')}
        loading={<div className="code-loading">Loading editor…</div>}
        options={{
          readOnly,
          domReadOnly: readOnly,
          ariaLabel,
          minimap: { enabled: false },
          folding: true,
          scrollBeyondLastLine: false,
          wordWrap: wordWrap ? 'on' : 'off',
          fontSize: 12.5,
          lineNumbersMinChars: 3,
          renderLineHighlight: 'none',
          automaticLayout: true,
          largeFileOptimizations: true,
          stickyScroll: { enabled: false },
          overviewRulerLanes: 0,
          overviewRulerBorder: false,
          hideCursorInOverviewRuler: true,
        }}
      />
    </div>
  )
}
