import '@testing-library/jest-dom/vitest'
import { cleanup } from '@testing-library/react'
import { configure } from '@testing-library/dom'
import { afterEach, inject, vi } from 'vitest'

configure({
  // Every screen waits on a real server (and lazy route code): give it time.
  asyncUtilTimeout: 8000,
  // Failures print the message, not the whole DOM.
  getElementError: (message) =>
    Object.assign(new Error(message ?? ''), { name: 'TestingLibraryElementError' }),
})

// The app's supabase client talks to the real localbase started in global-setup.ts.
vi.stubEnv('VITE_SUPABASE_URL', inject('localbaseUrl'))

// jsdom lacks what Radix and the theme code ask of a real browser.
window.matchMedia ??= (query: string) =>
  ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  }) as MediaQueryList
Element.prototype.hasPointerCapture ??= () => false
Element.prototype.releasePointerCapture ??= () => {}
Element.prototype.scrollIntoView ??= () => {}
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
}

afterEach(() => {
  cleanup()
  window.localStorage.clear()
})
