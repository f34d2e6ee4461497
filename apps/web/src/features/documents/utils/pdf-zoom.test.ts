import { describe, expect, it } from 'vitest'
import { MAX_ZOOM, MIN_ZOOM, fitWidthScale, zoomIn, zoomLabel, zoomOut } from './pdf-zoom'

describe('zoom steps', () => {
  it('steps in and out through the levels', () => {
    expect(zoomIn(1)).toBe(1.25)
    expect(zoomOut(1)).toBe(0.75)
    expect(zoomIn(1.5)).toBe(2)
  })

  it('goes from a fitted scale to the next level either way', () => {
    expect(zoomIn(1.36)).toBe(1.5)
    expect(zoomOut(1.36)).toBe(1.25)
    // Just off a step counts as on it: one press always changes the zoom visibly.
    expect(zoomIn(1.495)).toBe(2)
    expect(zoomOut(0.755)).toBe(0.5)
  })

  it('stops at the ends', () => {
    expect(zoomIn(MAX_ZOOM)).toBe(MAX_ZOOM)
    expect(zoomOut(MIN_ZOOM)).toBe(MIN_ZOOM)
  })
})

describe('fitWidthScale', () => {
  it('fills the width, within the zoom range', () => {
    expect(fitWidthScale(612, 612)).toBe(1)
    expect(fitWidthScale(306, 612)).toBe(0.5)
    expect(fitWidthScale(10, 612)).toBe(MIN_ZOOM)
    expect(fitWidthScale(0, 612)).toBe(1)
  })
})

describe('zoomLabel', () => {
  it('reads as a percentage', () => expect(zoomLabel(1.3594)).toBe('136%'))
})
