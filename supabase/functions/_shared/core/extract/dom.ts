// Generated from packages/core/src/extract/dom.ts by `npm run sync:core`: edit that file, not this one.
/**
 * Parses HTML into a Document: the platform's DOMParser in browsers, linkedom elsewhere (Node,
 * Deno, Web Workers, which have no DOMParser), loaded only when needed.
 */
export async function parseHtml(html: string): Promise<Document> {
  const doc = await parse(html)
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
  // linkedom, unlike browsers, leaves a fragment without <body> out of document.body.
  const page = /<body[\s>]/i.test(html) ? html : `<!doctype html><html><body>${html}</body></html>`
  return new LinkedomParser().parseFromString(page, 'text/html') as unknown as Document
}
