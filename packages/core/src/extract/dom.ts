/**
 * Parses HTML into a Document: the platform's DOMParser in browsers and workers, linkedom
 * elsewhere (Node, Deno), loaded only when needed so browser bundles never include it.
 */
export async function parseHtml(html: string): Promise<Document> {
  if (typeof DOMParser !== 'undefined') return new DOMParser().parseFromString(html, 'text/html')
  const { DOMParser: LinkedomParser } = await import('linkedom')
  // linkedom, unlike browsers, leaves a fragment without <body> out of document.body.
  const page = /<body[\s>]/i.test(html) ? html : `<!doctype html><html><body>${html}</body></html>`
  return new LinkedomParser().parseFromString(page, 'text/html') as unknown as Document
}
