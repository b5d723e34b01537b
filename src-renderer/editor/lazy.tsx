/**
 * The code view as the rest of the renderer uses it: Monaco is fetched the first time an editor is
 * shown (dynamic import), with a plain text fallback meanwhile, so the initial bundle stays small.
 */
import { lazy, Suspense } from 'react'
import type { CodeViewProps } from './code-view.tsx'

const LazyCodeView = lazy(() => import('./code-view.tsx'))

/** JSON or text in Monaco, loaded on first use. */
export function Code(props: CodeViewProps) {
  return (
    <Suspense
      fallback={
        <pre className="code-fallback" aria-label={props.ariaLabel} tabIndex={0}>
          {props.value.slice(0, 2000)}
        </pre>
      }
    >
      <LazyCodeView {...props} />
    </Suspense>
  )
}

/** Text worth showing for a body: JSON pretty-printed when small enough to do at once, else as it came. */
export const PRETTY_LIMIT = 256 * 1024

export function displayBody(
  text: string,
  contentType: string | undefined,
): { text: string; language: 'json' | 'plaintext'; pretty: boolean } {
  const looksJson = /json/i.test(contentType ?? '') || /^\s*[[{]/.test(text.slice(0, 64))
  if (!looksJson) return { text, language: 'plaintext', pretty: false }
  if (text.length > PRETTY_LIMIT) return { text, language: 'json', pretty: false }
  try {
    return { text: JSON.stringify(JSON.parse(text), null, 2), language: 'json', pretty: true }
  } catch {
    return { text, language: 'plaintext', pretty: false }
  }
}
