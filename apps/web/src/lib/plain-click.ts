import type * as React from 'react'

/** A click a browser would open in a new tab or window is left to the browser's own handling. */
export const isPlainClick = (event: React.MouseEvent) =>
  event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey
