/** localStorage that never throws (private mode, quotas, tests). */
export const localStore = {
  get(key: string): string | null {
    try {
      return window.localStorage.getItem(key)
    } catch {
      return null
    }
  },
  set(key: string, value: string | null) {
    try {
      if (value === null) window.localStorage.removeItem(key)
      else window.localStorage.setItem(key, value)
    } catch {
      // Remembering is a convenience; losing it is fine.
    }
  },
}
