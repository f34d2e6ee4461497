/**
 * Parses HTML into a Document: the platform's DOMParser in browsers, linkedom elsewhere (Node,
 * Deno, Web Workers, which have no DOMParser), loaded only when needed.
 */
export async function parseHtml(html: string): Promise<Document> {
  const doc = await parse(html)
  flattenBeyond(doc.documentElement, MAX_DEPTH)
  // An uploaded file has no address: without a <base>, relative links would resolve against
  // wherever this code runs (the app's page, the worker script), differently per runtime.
  if (!doc.querySelector('base[href]')) {
    const base = doc.createElement('base')
    base.setAttribute('href', 'about:blank')
    ;(doc.head ?? doc.documentElement).prepend(base)
  }
  return doc
}

async function parse(html: string): Promise<Document> {
  if (typeof DOMParser !== 'undefined') return new DOMParser().parseFromString(html, 'text/html')
  const { DOMParser: LinkedomParser } = await import('linkedom')
  // linkedom, unlike browsers, leaves what is not inside <html><body> out of document.body
  // (all of it, for a file that starts at <body> or <head>): the missing tags are added.
  const page = /<html[\s>]/i.test(html)
    ? html
    : `<!doctype html><html>${/<body[\s>]/i.test(html) ? html.replace(/<!doctype[^>]*>/i, '') : `<body>${html}</body>`}</html>`
  return new LinkedomParser().parseFromString(page, 'text/html') as unknown as Document
}

/**
 * Deeper than this, an element's content is kept as its text alone. Turndown and Readability
 * walk the tree recursively, so a file of thousands of nested elements (no real page nests
 * more than a few dozen) overflowed the stack. Browsers' own parsers stop nesting at 512.
 */
const MAX_DEPTH = 200
const INVISIBLE = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT'])

/**
 * Replaces the content of every element at `depth` below `root` that holds elements by its
 * text, words of separate elements kept apart. Iterative, for the same reason it exists, and
 * by sibling links: linkedom's `children` costs a walk of the subtree, quadratic on a chain.
 */
function flattenBeyond(root: Element, depth: number): void {
  let node: Node | null = root.firstChild
  let level = 1
  while (node) {
    if (level >= depth && node.nodeType === 1 && hasElementChild(node)) {
      node.textContent = textOf(node)
    } else if (node.firstChild) {
      node = node.firstChild
      level++
      continue
    }
    while (node && node !== root && !node.nextSibling) {
      node = node.parentNode
      level--
    }
    node = node && node !== root ? node.nextSibling : null
  }
}

function hasElementChild(node: Node): boolean {
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 1) return true
  }
  return false
}

/** The visible text under `top`, a space at each element's edges. */
function textOf(top: Node): string {
  const parts: string[] = []
  let node: Node | null = top.firstChild
  while (node) {
    if (node.nodeType === 3) parts.push(node.nodeValue ?? '')
    else if (node.nodeType === 1 && !INVISIBLE.has((node as Element).tagName)) {
      parts.push(' ')
      if (node.firstChild) {
        node = node.firstChild
        continue
      }
    }
    while (node && node !== top && !node.nextSibling) {
      node = node.parentNode
      parts.push(' ')
    }
    node = node && node !== top ? node.nextSibling : null
  }
  return parts.join('')
}
