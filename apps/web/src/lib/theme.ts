import { localStore } from './storage'

export type Theme = 'light' | 'dark' | 'system'

const KEY = 'sourcebook:theme'
const listeners = new Set<() => void>()

export function getTheme(): Theme {
  const saved = localStore.get(KEY)
  return saved === 'light' || saved === 'dark' ? saved : 'system'
}

function prefersDark() {
  return (
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-color-scheme: dark)').matches
  )
}

export function resolvedTheme(theme = getTheme()): 'light' | 'dark' {
  return theme === 'system' ? (prefersDark() ? 'dark' : 'light') : theme
}

export function applyTheme() {
  document.documentElement.classList.toggle('dark', resolvedTheme() === 'dark')
}

/** Switches at once: colours that animate (buttons, inputs) would fade through the other theme. */
function withoutTransitions(change: () => void) {
  const style = document.createElement('style')
  style.textContent = '*,*::before,*::after{transition:none!important}'
  document.head.appendChild(style)
  change()
  void window.getComputedStyle(document.body).opacity
  requestAnimationFrame(() => style.remove())
}

export function setTheme(theme: Theme) {
  localStore.set(KEY, theme === 'system' ? null : theme)
  withoutTransitions(applyTheme)
  for (const listener of listeners) listener()
}

/** Subscribes to theme changes, including the system's, for useSyncExternalStore. */
export function subscribeTheme(listener: () => void) {
  listeners.add(listener)
  const media =
    typeof window.matchMedia === 'function'
      ? window.matchMedia('(prefers-color-scheme: dark)')
      : null
  const onSystem = () => {
    applyTheme()
    listener()
  }
  media?.addEventListener('change', onSystem)
  return () => {
    listeners.delete(listener)
    media?.removeEventListener('change', onSystem)
  }
}
