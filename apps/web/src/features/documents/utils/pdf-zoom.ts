/** Zoom levels, in CSS pixels per PDF point (1 = 100%), that zoom in and out step through. */
export const ZOOM_STEPS = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4]

export const MIN_ZOOM = 0.25
export const MAX_ZOOM = 4

// Fit width lands between steps: a scale within this of a step counts as on it, so one press
// always changes the zoom visibly.
const EPSILON = 0.01

/** The next step above `scale`, or the largest. */
export function zoomIn(scale: number): number {
  return ZOOM_STEPS.find((step) => step > scale + EPSILON) ?? MAX_ZOOM
}

/** The next step below `scale`, or the smallest. */
export function zoomOut(scale: number): number {
  return [...ZOOM_STEPS].reverse().find((step) => step < scale - EPSILON) ?? MIN_ZOOM
}

/** The scale at which a page `pageWidth` points wide fills `available` CSS pixels. */
export function fitWidthScale(available: number, pageWidth: number): number {
  if (available <= 0 || pageWidth <= 0) return 1
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, available / pageWidth))
}

/** How a scale reads in the toolbar. */
export const zoomLabel = (scale: number) => `${Math.round(scale * 100)}%`
