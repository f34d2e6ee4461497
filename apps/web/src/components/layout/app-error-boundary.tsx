import { Component, type ErrorInfo, type ReactNode } from 'react'

type State = { error: Error | null }

/** The last line of defence, outside the router: a plain page that offers a reload. */
export class AppErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null }

  static getDerivedStateFromError(error: Error): State {
    return { error }
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Sourcebook crashed:', error, info.componentStack)
  }

  override render() {
    if (!this.state.error) return this.props.children
    return (
      <div role="alert" className="mx-auto max-w-md px-4 py-24 text-center">
        <h1 className="text-lg font-semibold">Sourcebook hit a problem</h1>
        <p className="text-muted-foreground mt-2 text-sm">{this.state.error.message}</p>
        <button
          className="bg-primary text-primary-foreground mt-6 rounded-md px-4 py-2 text-sm font-medium"
          onClick={() => window.location.reload()}
        >
          Reload
        </button>
      </div>
    )
  }
}
