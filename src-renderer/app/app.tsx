import { lazy, Suspense, useEffect, useRef } from 'react'
import { Busy } from '../components/busy.tsx'
import { ErrorPanel } from '../components/error-panel.tsx'
import { ConsentsView } from '../features/consents/consents-view.tsx'
import { EnvironmentsView } from '../features/environments/environments-view.tsx'
import { FlowsView } from '../features/flows/flows-view.tsx'
import { InspectorView } from '../features/inspector/inspector-view.tsx'
import { GuideView } from '../features/onboarding/guide-view.tsx'
import { RegistrationView } from '../features/registration/registration-view.tsx'
import { VIEW_LABELS, type ViewId } from '../store/app-slice.ts'
import { useApp } from '../store/store.ts'
import { ErrorBoundary } from './error-boundary.tsx'
import { Nav } from './nav.tsx'
import { Notices } from './notices.tsx'

const JwtDebuggerView = lazy(() => import('../features/jwt-debugger/jwt-debugger-view.tsx'))
// The data view (the 10,000-row transactions table, filters, exports) loads on first use.
const DataView = lazy(() => import('../features/data/data-view.tsx'))
// The TPP's tools load when first opened.
const KeysView = lazy(() => import('../features/keys/keys-view.tsx').then((m) => ({ default: m.KeysView })))
const PrerequisitesView = lazy(() =>
  import('../features/prerequisites/prerequisites-view.tsx').then((m) => ({ default: m.PrerequisitesView })),
)
const DiscoveryView = lazy(() =>
  import('../features/discovery/discovery-view.tsx').then((m) => ({ default: m.DiscoveryView })),
)

function View({ view }: { view: ViewId }) {
  switch (view) {
    case 'guide':
      return <GuideView />
    case 'environments':
      return <EnvironmentsView />
    case 'keys':
      return (
        <Suspense fallback={<Busy label="Loading keys and certificates…" />}>
          <KeysView />
        </Suspense>
      )
    case 'prerequisites':
      return (
        <Suspense fallback={<Busy label="Loading the prerequisites…" />}>
          <PrerequisitesView />
        </Suspense>
      )
    case 'discovery':
      return (
        <Suspense fallback={<Busy label="Loading the discovery viewer…" />}>
          <DiscoveryView />
        </Suspense>
      )
    case 'registration':
      return <RegistrationView />
    case 'flows':
      return <FlowsView />
    case 'consents':
      return <ConsentsView />
    case 'data':
      return (
        <Suspense fallback={<Busy label="Loading the account data view…" />}>
          <DataView />
        </Suspense>
      )
    case 'inspector':
      return <InspectorView />
    case 'jwt':
      return (
        <Suspense fallback={<Busy label="Loading the JWT debugger…" />}>
          <JwtDebuggerView />
        </Suspense>
      )
  }
}

/** The console's shell: navigation, notices and the current view inside an error boundary. */
export function App() {
  const view = useApp((s) => s.view)
  const visit = useApp((s) => s.viewVisit)
  const booted = useApp((s) => s.booted)
  const boot = useApp((s) => s.boot)
  const infoError = useApp((s) => s.ops['app.info']?.error)
  useEffect(() => {
    void boot()
  }, [boot])
  const main = useRef<HTMLElement>(null)
  const firstView = useRef(true)
  useEffect(() => {
    document.title = `${VIEW_LABELS[view]} · OB Console`
    // Each view opens at its top, and focus goes to it (not left on the navigation button or on <body>).
    if (firstView.current) {
      firstView.current = false
      return
    }
    window.scrollTo(0, 0)
    if (main.current) main.current.scrollTop = 0
    main.current?.focus({ preventScroll: true })
  }, [view, visit])
  return (
    <div className="app">
      <button type="button" className="skip-link" onClick={() => main.current?.focus()}>
        Skip to the {VIEW_LABELS[view]} view
      </button>
      <Nav />
      <main className="main" id="main" tabIndex={-1} ref={main} aria-label={VIEW_LABELS[view]}>
        <Notices />
        {!booted ? (
          infoError ? (
            <ErrorPanel title="The console cannot be reached" error={infoError} />
          ) : (
            <Busy label="Connecting to the console…" />
          )
        ) : (
          <ErrorBoundary key={view} area={VIEW_LABELS[view]}>
            <View view={view} />
          </ErrorBoundary>
        )}
      </main>
    </div>
  )
}
