import { Component, type ReactNode } from 'react'

type State = { failed: boolean }

/** Keeps a PDF that pdf.js cannot load or draw (or its code failing to load) to this box. */
export class PdfErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false }

  static getDerivedStateFromError(): State {
    return { failed: true }
  }

  override render() {
    if (!this.state.failed) return this.props.children
    return (
      <p role="alert" className="text-destructive text-sm">
        The pages of this PDF could not be displayed. Read its text instead, or download the
        original.
      </p>
    )
  }
}
