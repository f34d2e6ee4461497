import { useEffect, useState } from 'react'

/** Watches an element's inner width (through a callback ref), so pages fit their column. */
export function useElementWidth<T extends HTMLElement>() {
  const [element, ref] = useState<T | null>(null)
  const [width, setWidth] = useState(0)
  useEffect(() => {
    if (!element) return
    const observer = new ResizeObserver(() => setWidth(element.clientWidth))
    observer.observe(element)
    return () => observer.disconnect()
  }, [element])
  return [ref, width] as const
}
