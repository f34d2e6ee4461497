// Generated from packages/core/src/extract/html.ts by `npm run sync:core`: edit that file, not this one.
import { isProbablyReaderable, Readability } from '@mozilla/readability'
import { parseHtml } from './dom.ts'
import { htmlToMarkdown } from './html-to-markdown.ts'

/** Below this share of the body's text, readability's "article" is taken to have missed content. */
const MIN_ARTICLE_SHARE = 0.3

/** The page's main content as Markdown (readability), or its whole body when that finds too little. */
export async function htmlToDocument(html: string): Promise<{ markdown: string; title?: string }> {
  const doc = await parseHtml(html)
  const bodyText = doc.body.textContent?.trim() ?? ''
  const pageTitle = doc.querySelector('title')?.textContent?.trim() || undefined
  // Short pages are all content: readability would only drop parts of them.
  const article = isProbablyReaderable(doc) ? await readArticle(html) : null
  const articleText = article?.textContent?.trim() ?? ''
  const useArticle = article?.content && articleText.length >= bodyText.length * MIN_ARTICLE_SHARE
  return {
    markdown: htmlToMarkdown(useArticle ? await articleBody(article.content!) : doc.body),
    title: (useArticle ? article.title?.trim() : undefined) || pageTitle,
  }
}

/**
 * The article's element. Readability resolved links against our placeholder base (see
 * parseHtml): in-page anchors came back as "about:blank#…", turned back into "#…" here.
 */
async function articleBody(html: string): Promise<HTMLElement> {
  const { body } = await parseHtml(html)
  for (const link of Array.from(body.getElementsByTagName('a'))) {
    const href = link.getAttribute('href') ?? ''
    if (href.startsWith('about:blank')) link.setAttribute('href', href.slice('about:blank'.length))
  }
  return body
}

/** Readability's article, or null when it finds none (or trips over unusual markup). */
async function readArticle(html: string): Promise<ReturnType<Readability['parse']>> {
  try {
    // Readability rewrites the document it reads, so it gets its own copy.
    return new Readability(await parseHtml(html)).parse()
  } catch {
    return null
  }
}
