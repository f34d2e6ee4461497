import '@testing-library/jest-dom/vitest'
import { cleanup } from '@testing-library/react'
import { configure } from '@testing-library/dom'
import { afterAll, afterEach, inject, vi } from 'vitest'
import { WebSocket } from 'ws'

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
// jsdom's WebSocket mixes its Event class with Node's EventTarget and throws on the
// first frame; the `ws` package speaks the same browser API without that clash.
globalThis.WebSocket = WebSocket as unknown as typeof globalThis.WebSocket
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
}

afterEach(() => {
  cleanup()
  window.localStorage.clear()
})

// A toast being dismissed as a file's last test ends removes itself 200 ms later (sonner's
// unmount delay); waiting that out keeps its timer from firing after the environment, and
// its window, are gone (a ReferenceError Vitest counts against the whole run).
afterAll(() => new Promise((resolve) => setTimeout(resolve, 250)))
