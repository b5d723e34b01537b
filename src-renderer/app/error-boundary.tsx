import { Component, type ErrorInfo, type ReactNode } from 'react'

interface State {
  error?: Error
}

/** Catches a view's render error and says so in words, with a way back; the stack goes to the console only. */
export class ErrorBoundary extends Component<{ children: ReactNode; area: string }, State> {
  override state: State = {}

  static getDerivedStateFromError(error: Error): State {
    return { error }
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`render error in ${this.props.area}`, error, info.componentStack)
  }

  override render() {
    if (!this.state.error) return this.props.children
    return (
      <div className="error-panel" role="alert">
        <div className="error-head">
          <strong>{this.props.area} could not be drawn.</strong>
        </div>
        <p>
          <span className="muted">Cause</span> {this.state.error.message || 'an unexpected error in the console page'}
        </p>
        <p>
          <span className="muted">Fix</span> Try again; if it happens again, reload the page and report what you did
          (details are in the developer console).
        </p>
        <button type="button" onClick={() => this.setState({ error: undefined })}>
          Try again
        </button>
      </div>
    )
  }
}
