import { useSyncExternalStore } from 'react'
import { getTheme, resolvedTheme, setTheme, subscribeTheme } from '@/lib/theme'

export function useTheme() {
  const theme = useSyncExternalStore(subscribeTheme, getTheme)
  return { theme, resolved: resolvedTheme(theme), setTheme }
}
