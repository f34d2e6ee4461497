import { useEffect, useState } from 'react'
import { pageAtLine } from '../utils/page-at-line'

/**
 * The page the reader is on, following scrolling of the window or of any scrolling ancestor
 * (the viewer may sit in a side panel): the last page whose top passed the toolbar's bottom.
 */
export function useCurrentPage(pages: HTMLElement | null, toolbar: HTMLElement | null) {
  const [page, setPage] = useState(1)
  useEffect(() => {
    if (!pages) return
    let frame = 0
    const update = () => {
      frame = 0
      const sections = pages.querySelectorAll<HTMLElement>('[data-page]')
      // Jumps put a page's top 8px under the toolbar: the line lies a little lower, so sub-pixel
      // layout never leaves a page just reached unnamed.
      const line = (toolbar?.getBoundingClientRect().bottom ?? 0) + 16
      setPage(
        pageAtLine(
          [...sections].map((s) => s.getBoundingClientRect().top),
          line,
        ),
      )
    }
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(update)
    }
    document.addEventListener('scroll', schedule, { capture: true, passive: true })
    window.addEventListener('resize', schedule)
    schedule()
    return () => {
      cancelAnimationFrame(frame)
      document.removeEventListener('scroll', schedule, { capture: true })
      window.removeEventListener('resize', schedule)
    }
  }, [pages, toolbar])
  return page
}
