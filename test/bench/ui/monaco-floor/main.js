/* global document, window, self */
// P5's floor: Monaco alone, bundled by Vite the way the renderer bundles it (the editor API, its
// features, the JSON language and the two workers), with the editor options of the console's code view.
// "Open" fetches the same 10 MB JSON from the floor server and shows it, as the inspector does.
import * as monaco from 'monaco-editor/editor/editor.api'
import 'monaco-editor/features/register.all'
import 'monaco-editor/languages/features/json/register'
import EditorWorker from 'monaco-editor/editor/editor.worker?worker'
import JsonWorker from 'monaco-editor/language/json/json.worker?worker'

self.MonacoEnvironment = { getWorker: (_id, label) => (label === 'json' ? new JsonWorker() : new EditorWorker()) }

let editor
document.getElementById('open').addEventListener('click', async () => {
  // The previous open's text goes first, so nothing stale is on screen while the new one loads.
  editor?.dispose()
  editor = undefined
  const text = await (await fetch('./big.json')).text()
  const options = {
    value: text,
    language: 'json',
    readOnly: true,
    domReadOnly: true,
    minimap: { enabled: false },
    folding: true,
    scrollBeyondLastLine: false,
    wordWrap: 'off',
    fontSize: 12.5,
    lineNumbersMinChars: 3,
    renderLineHighlight: 'none',
    automaticLayout: true,
    largeFileOptimizations: true,
    stickyScroll: { enabled: false },
    overviewRulerLanes: 0,
    overviewRulerBorder: false,
    hideCursorInOverviewRuler: true,
  }
  editor = monaco.editor.create(document.getElementById('editor'), options)
})
window.floorReady = true
