// Generated from packages/core/src/extract/pptx.ts by `npm run sync:core`: edit that file, not this one.
import { chartText } from './chart.ts'
import { markdownTable } from './markdown-table.ts'
import { child, children, descendants, openPackage, path, type OoxmlPackage } from './ooxml.ts'

const NOTES = '/relationships/notesSlide'

/**
 * PPTX → one Markdown text per slide, in the presentation's slide order: a `# Slide n: title`
 * heading (the number is what the reader of the text, the chunks' heading paths and a model
 * see of where a passage is), then the other shapes top to bottom and left to right (lists as
 * lists, tables as GFM tables, charts as their title, type and series table), then the speaker
 * notes under a "Notes:" line. A slide with nothing to read is an empty page, so page n stays
 * slide n. The title is the first slide title.
 */
export async function pptxToSlides(
  bytes: Uint8Array,
  maxUnzippedBytes: number,
): Promise<{ slides: string[]; title: string | undefined }> {
  const pkg = await openPackage(
    bytes,
    'ppt/presentation.xml',
    'a PowerPoint file (.pptx)',
    maxUnzippedBytes,
  )
  const presentation = await pkg.xml('ppt/presentation.xml')
  const rels = await pkg.relationships('ppt/presentation.xml')
  const slides: string[] = []
  let title: string | undefined
  for (const slideId of children(path(presentation, 'sldIdLst'), 'sldId')) {
    const target = rels.get(relId(slideId))?.target
    if (!target || !pkg.has(target)) continue
    const slide = await slideText(pkg, target, slides.length + 1)
    title ??= slide.title
    slides.push(slide.text)
  }
  return { slides, title }
}

async function slideText(pkg: OoxmlPackage, slidePath: string, number: number) {
  const slide = await pkg.xml(slidePath)
  const rels = await pkg.relationships(slidePath)
  const placed = await shapeBlocks(pkg, rels, path(slide, 'cSld', 'spTree'))
  const title = placed[0]?.title ? placed.shift()!.text : undefined
  const blocks = placed.map((shape) => shape.text)
  const notesPath = [...rels.values()].find((rel) => rel.type.endsWith(NOTES))?.target
  const notes = notesPath ? await notesText(pkg, notesPath) : ''
  if (notes) blocks.push(`Notes:\n\n${notes}`)
  if (!title && blocks.length === 0) return { text: '', title }
  const heading = `# Slide ${number}${title ? `: ${title}` : ''}`
  return { text: [heading, ...blocks].join('\n\n'), title }
}

type Rels = Map<string, { target: string; type: string }>

interface Placed {
  title: boolean
  y: number
  x: number
  text: string
}

/** The Markdown of a shape tree's shapes, the title first and the rest in reading order. */
async function shapeBlocks(
  pkg: OoxmlPackage,
  rels: Rels,
  tree: Element | undefined,
): Promise<Placed[]> {
  const placed: Placed[] = []
  for (const shape of children(tree)) {
    const text = await shapeText(pkg, rels, shape)
    if (!text) continue
    const offset =
      path(shape, 'spPr', 'xfrm', 'off') ??
      path(shape, 'xfrm', 'off') ??
      path(shape, 'grpSpPr', 'xfrm', 'off')
    const type = descendants(path(shape, 'nvSpPr', 'nvPr'), 'ph')[0]?.getAttribute('type')
    const title = type === 'title' || type === 'ctrTitle'
    placed.push({
      title,
      y: Number(offset?.getAttribute('y') ?? Infinity),
      x: Number(offset?.getAttribute('x') ?? Infinity),
      text: title ? text.replace(/\s*\n+\s*/g, ' ') : text,
    })
  }
  // Stable sort: shapes without a position (inherited from the layout) keep document order.
  placed.sort((a, b) => Number(b.title) - Number(a.title) || a.y - b.y || a.x - b.x)
  return placed
}

async function shapeText(pkg: OoxmlPackage, rels: Rels, shape: Element): Promise<string> {
  switch (shape.localName) {
    case 'sp':
      return paragraphs(child(shape, 'txBody'), bulletedByLayout(shape))
    case 'grpSp':
      return (await shapeBlocks(pkg, rels, shape)).map((inner) => inner.text).join('\n\n')
    case 'graphicFrame': {
      const data = path(shape, 'graphic', 'graphicData')
      const table = child(data, 'tbl')
      if (table) return markdownTable(tableGrid(table))
      const chartRef = child(data, 'chart')
      const chartPath = chartRef && rels.get(relId(chartRef))?.target
      return chartPath ? chartText(await pkg.xml(chartPath)) : ''
    }
    default:
      return ''
  }
}

/**
 * Body and content placeholders inherit bullets from the slide master, so their paragraphs are
 * list items unless they say otherwise (buNone).
 */
function bulletedByLayout(shape: Element): boolean {
  const placeholder = descendants(path(shape, 'nvSpPr', 'nvPr'), 'ph')[0]
  if (!placeholder) return false
  const type = placeholder.getAttribute('type') ?? 'obj'
  return type === 'body' || type === 'obj'
}

/** A text body's paragraphs: bulleted ones as list items, numbered ones numbered. */
function paragraphs(body: Element | undefined, bulleted = false): string {
  const lines: string[] = []
  let number = 0
  let previousList = false
  for (const p of children(body, 'p')) {
    const text = runText(p).trim()
    if (!text) continue
    const props = child(p, 'pPr')
    const indent = '  '.repeat(Math.min(Number(props?.getAttribute('lvl') ?? 0) || 0, 8))
    let line = text
    if (child(props, 'buAutoNum')) line = `${indent}${++number}. ${text}`
    else if (child(props, 'buChar') || (bulleted && !child(props, 'buNone'))) {
      line = `${indent}- ${text}`
    } else number = 0
    const isList = line !== text
    // List items stay together; other paragraphs are separated by a blank line.
    lines.push(lines.length === 0 ? line : `${isList && previousList ? '\n' : '\n\n'}${line}`)
    previousList = isList
  }
  return lines.join('')
}

function runText(paragraph: Element): string {
  let text = ''
  for (const part of children(paragraph)) {
    if (part.localName === 'br') text += '\n'
    else if (part.localName === 'r' || part.localName === 'fld') {
      text += child(part, 't')?.textContent ?? ''
    }
  }
  return text.replace(/[ \t\u00a0]+/g, ' ')
}

/**
 * A DrawingML table on a grid. Every row lists one cell per grid column, those a merge covers
 * flagged hMerge/vMerge; the merged cell's text repeats in every slot it covers.
 */
function tableGrid(table: Element): string[][] {
  const grid: string[][] = []
  children(table, 'tr').forEach((row, r) => {
    grid[r] ??= []
    children(row, 'tc').forEach((cell, c) => {
      if (cell.getAttribute('hMerge') === '1' || cell.getAttribute('vMerge') === '1') {
        grid[r]![c] ??= ''
        return
      }
      const text = paragraphs(child(cell, 'txBody')).replace(/\n+/g, ' ')
      const rows = span(cell.getAttribute('rowSpan'))
      const columns = span(cell.getAttribute('gridSpan'))
      for (let dr = 0; dr < rows; dr++) {
        grid[r + dr] ??= []
        for (let dc = 0; dc < columns; dc++) grid[r + dr]![c + dc] = text
      }
    })
  })
  return grid
}

const span = (value: string | null) => Math.min(Math.max(Number(value) || 1, 1), 100)

const relId = (element: Element) =>
  element.getAttributeNS(
    'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
    'id',
  ) ??
  element.getAttribute('r:id') ??
  ''

/** The speaker notes: the notes page's body placeholder (not the slide image or number). */
async function notesText(pkg: OoxmlPackage, notesPath: string): Promise<string> {
  const notes = await pkg.xml(notesPath)
  return children(path(notes, 'cSld', 'spTree'), 'sp')
    .filter(
      (shape) =>
        descendants(path(shape, 'nvSpPr', 'nvPr'), 'ph')[0]?.getAttribute('type') === 'body',
    )
    .map((shape) => paragraphs(child(shape, 'txBody')))
    .filter(Boolean)
    .join('\n\n')
}
