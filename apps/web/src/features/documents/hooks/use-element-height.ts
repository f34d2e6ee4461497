import { useEffect, useState } from 'react'

/**
 * How tall an element is, kept current, so what sticks below a sticky element (the PDF toolbar
 * under the passage banner) can stick at `calc(<its top> + height)` and never hide it. Tops stay
 * in CSS: they change with breakpoints and with the connection bar, neither of which resizes the
 * element. A callback ref: the element may appear after the first render (a skeleton first).
 */
export function useElementHeight<T extends HTMLElement>() {
  const [element, ref] = useState<T | null>(null)
  const [height, setHeight] = useState(0)
  useEffect(() => {
    if (!element) return
    const observer = new ResizeObserver(() => setHeight(element.offsetHeight))
    observer.observe(element)
    return () => observer.disconnect()
  }, [element])
  return [ref, height, element] as const
}
