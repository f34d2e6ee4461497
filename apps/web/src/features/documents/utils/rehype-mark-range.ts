import type { ElementContent, Root, RootContent, Text } from 'hast'

type Range = { start: number; end: number }

const mark = (value: string, first: boolean): ElementContent => ({
  type: 'element',
  tagName: 'mark',
  properties: first ? { dataPassage: 'start' } : {},
  children: [{ type: 'text', value }],
})

/**
 * The pieces a text node becomes: where its source span (offsets into the Markdown, which is
 * the document's extracted text) overlaps the range, that part is wrapped in <mark>. A node
 * whose text is as long as its source is cut exactly; one with escapes or entities (text and
 * source differ) is marked whole, since its characters cannot be mapped one to one.
 */
function splitText(node: Text, range: Range, first: boolean): ElementContent[] | null {
  const from = node.position?.start.offset
  const to = node.position?.end.offset
  if (from === undefined || to === undefined) return null
  if (to <= range.start || from >= range.end) return null
  if (to - from !== node.value.length) return [mark(node.value, first)]
  const cutStart = Math.max(0, range.start - from)
  const cutEnd = Math.min(node.value.length, range.end - from)
  const pieces: ElementContent[] = []
  if (cutStart > 0) pieces.push({ type: 'text', value: node.value.slice(0, cutStart) })
  pieces.push(mark(node.value.slice(cutStart, cutEnd), first))
  if (cutEnd < node.value.length) pieces.push({ type: 'text', value: node.value.slice(cutEnd) })
  return pieces
}

/** A rehype plugin marking the rendered text whose Markdown source lies in [start, end). */
export function rehypeMarkRange(range: Range | null) {
  return () => (tree: Root) => {
    if (!range) return
    let first = true
    const visit = (parent: { children: RootContent[] }) => {
      parent.children = parent.children.flatMap((child): RootContent[] => {
        if (child.type === 'text') {
          const pieces = splitText(child, range, first)
          if (!pieces) return [child]
          first = false
          return pieces
        }
        if ('children' in child) visit(child as { children: RootContent[] })
        return [child]
      })
    }
    visit(tree)
  }
}
