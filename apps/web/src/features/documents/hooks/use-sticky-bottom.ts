import { useEffect, useState } from 'react'

/**
 * Where a sticky element ends while stuck (its `top` plus its height), so what sticks below it
 * (the PDF toolbar under the passage banner) can stick there and never hide it. A callback
 * ref: the element may appear after the first render (a page shows a skeleton first).
 */
export function useStickyBottom<T extends HTMLElement>() {
  const [element, ref] = useState<T | null>(null)
  const [bottom, setBottom] = useState(0)
  useEffect(() => {
    if (!element) return
    const measure = () =>
      setBottom((parseFloat(getComputedStyle(element).top) || 0) + element.offsetHeight)
    const observer = new ResizeObserver(measure)
    observer.observe(element)
    // Its `top` changes at a breakpoint without its size changing.
    window.addEventListener('resize', measure)
    return () => {
      observer.disconnect()
      window.removeEventListener('resize', measure)
    }
  }, [element])
  return [ref, bottom, element] as const
}
