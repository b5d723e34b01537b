import { denyAllNavigation, describeUrl, type NavigationDecision, type NavigationPolicy } from './navigation-policy.ts'
import { denyPermissions, type PermissionSession } from './permissions.ts'

/** The parts of an Electron `WebContents` the guard uses (a port, so it is tested without Electron). */
export interface GuardedContents {
  readonly session: PermissionSession
  on(
    event: 'will-navigate' | 'will-redirect',
    listener: (event: { preventDefault(): void }, url: string) => void,
  ): unknown
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' } | { action: 'allow' }): void
}

/** The parts of Electron's `app` the guard listens to. */
export interface GuardedApp {
  on(event: 'web-contents-created', listener: (event: unknown, contents: GuardedContents) => void): unknown
  on(event: 'session-created', listener: (session: PermissionSession) => void): unknown
}

interface Entry {
  policy: NavigationPolicy
  onIntercept?: (url: string) => void
}

/**
 * The app-wide guard of every web contents and session the desktop app creates:
 * - every session (the default one, the auth window's partition, any other) denies permissions
 *   (permissions.ts), set when the session is created and again on each web contents' session;
 * - every web contents refuses `<webview>`, opens no window (a window replaces this default with its
 *   own handler) and navigates only as the policy it was given says (`setPolicy`); one without a policy
 *   navigates nowhere. Navigations and server redirects (`will-navigate`, `will-redirect`) both go
 *   through the policy; an intercepted URL is never loaded and goes to the window's `onIntercept`.
 */
export class WebContentsGuard {
  readonly #policies = new WeakMap<GuardedContents, Entry>()
  readonly #sessions = new WeakSet<PermissionSession>()

  constructor(
    private readonly consoleRendererUrlPrefix: string,
    private readonly log: (line: string) => void,
  ) {}

  /** Listens on `app`: call before any window or session is created. */
  install(app: GuardedApp): void {
    app.on('session-created', (session) => this.hardenSession(session))
    app.on('web-contents-created', (_event, contents) => this.guard(contents))
  }

  /** Sets the permission handlers on `session`, once. */
  hardenSession(session: PermissionSession): void {
    if (this.#sessions.has(session)) return
    this.#sessions.add(session)
    denyPermissions(session, this.consoleRendererUrlPrefix, this.log)
  }

  /** Guards one web contents (done for every one created; harmless to repeat). */
  guard(contents: GuardedContents): void {
    this.hardenSession(contents.session)
    contents.on('will-attach-webview', (event) => {
      event.preventDefault()
      this.log('ob-console: refused to attach a <webview>')
    })
    contents.setWindowOpenHandler(({ url }) => {
      this.log(`ob-console: refused to open a window for ${describeUrl(url)}`)
      return { action: 'deny' }
    })
    const onNavigation = (event: { preventDefault(): void }, url: string) => {
      this.decide(contents, event, url)
    }
    contents.on('will-navigate', onNavigation)
    contents.on('will-redirect', onNavigation)
  }

  /** Gives `contents` its navigation policy; `onIntercept` receives the URLs the policy intercepts. */
  setPolicy(contents: GuardedContents, policy: NavigationPolicy, onIntercept?: (url: string) => void): void {
    this.#policies.set(contents, { policy, ...(onIntercept ? { onIntercept } : {}) })
  }

  /** Applies the policy of `contents` to one navigation: lets it go, or prevents it (and hands an intercepted URL on). */
  decide(contents: GuardedContents, event: { preventDefault(): void }, url: string): NavigationDecision {
    const entry = this.#policies.get(contents)
    const decision = (entry?.policy ?? denyAllNavigation)(url)
    if (decision.action === 'allow') return decision
    event.preventDefault()
    if (decision.action === 'intercept') {
      if (entry?.onIntercept) entry.onIntercept(url)
      return decision
    }
    this.log(`ob-console: refused a navigation: ${decision.reason}`)
    return decision
  }
}
