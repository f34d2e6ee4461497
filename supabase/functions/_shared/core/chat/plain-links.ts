// Generated from packages/core/src/chat/plain-links.ts by `npm run sync:core`: edit that file, not this one.
// A link destination: no spaces, balanced parentheses one deep ("wiki/Duck_(bird)"), or <…>;
// then an optional "title".
const DESTINATION = String.raw`(?:<[^<>\n]*>|(?:[^()\s]|\([^()\s]*\))*)(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?`
// Link text: anything but brackets and line breaks, or backslash-escaped ("[\[1\]](#cite-1)").
const TEXT = String.raw`((?:\\[^\n]|[^\[\]\n\\])*)`
const INLINE = new RegExp(String.raw`!?\[${TEXT}\]\(${DESTINATION}\)`, 'g')
const REFERENCE = new RegExp(String.raw`!?\[${TEXT}\]\[[^[\]\n]*\]`, 'g')
const AUTOLINK = /<((?:[a-z][a-z\d+.-]{1,31}:|www\.)[^<>\s]*|[^<>\s@]+@[^<>\s@]+\.[a-z]{2,})>/gi
// What is left of a link cut by the edge of an excerpt: its end at the start, its start at the end.
const CUT_START = new RegExp(String.raw`^${TEXT}\]\(${DESTINATION}\)`)
const CUT_END = new RegExp(String.raw`!?\[${TEXT}\]\([^)\s]*$`)
// A Markdown backslash escape of punctuation.
const ESCAPED = /\\([!-/:-@[-`{-~])/g
const linkText = (_match: string, text: string) => text.replace(ESCAPED, '$1')

/**
 * Markdown link syntax as a reader sees it: `[text](url)` and `[text][ref]` become their text
 * (unescaped: `[\[1\]](#cite-1)` reads "[1]"),
 * `![alt](src)` its alt text, `<https://…>` the address. Also the halves of a link an excerpt
 * cut ("text](url) …", "… [text](http"). For text shown to people (search snippets, quotes,
 * extractive answers); the stored text keeps the syntax, since offsets point into it.
 */
export function plainLinks(text: string): string {
  return text
    .replace(INLINE, linkText)
    .replace(REFERENCE, linkText)
    .replace(AUTOLINK, '$1')
    .replace(CUT_START, linkText)
    .replace(CUT_END, linkText)
}
