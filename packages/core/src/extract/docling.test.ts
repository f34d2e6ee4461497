import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { sharedData } from '../testing/shared-data.ts'
import { wordSimilarity } from '../testing/similarity.ts'
import { tableCellAccuracy } from '../testing/table-cells.ts'
import { extractDocument } from './extract-document.ts'

// Every PDF, DOCX, HTML, PPTX and XLSX source of docling's parser fixtures, compared with docling's own
// Markdown by word-multiset similarity (Dice). Thresholds sit a few points under what we measure.
const root = fileURLToPath(new URL('docling-testdata/', sharedData))
const defaults = { pdf: 0.93, docx: 0.9, html: 0.9, pptx: 0.9, xlsx: 0.9 } as const

/** Files we read less well than docling, each with the reason; measured score in the comment. */
const lower: Record<string, number> = {
  // Right-to-left scripts: pdf.js returns glyph runs in visual order, docling re-orders (0.80/0.73/0.79).
  'right_to_left_01.pdf': 0.75,
  'right_to_left_02.pdf': 0.68,
  'right_to_left_03.pdf': 0.65,
  // DrawingML charts and text boxes: mammoth does not read them, docling extracts chart data (0.33).
  'drawingml.docx': 0.3,
  // OMML equations: mammoth drops math, docling writes LaTeX (0.73 / 0.88 / 0.65).
  'equations.docx': 0.68,
  'omml_multi_equation_paragraph.docx': 0.84,
  'table_with_equations.docx': 0.6,
  // We keep the external URL of each of its 53 links; docling keeps link text only (0.85).
  'docx_rich_tables_01.docx': 0.8,
  // Word's automatic heading numbers ("1.2") are list numbering, not text; docling prints them (0.875).
  'unit_test_headers_numbered.docx': 0.84,
  // The page is an image link; docling keeps the image placeholder words (0.67 / 0.84).
  'hyperlink_02.html': 0.6,
  'hyperlink_05.html': 0.8,
  // Key-value layout tables flattened differently (0.88).
  'kvp_data_example.html': 0.84,
  // Readability keeps the article; docling's truth includes the wiki's navigation and footer (0.80).
  'wiki_duck.html': 0.75,
  // Review comments: we do not read them, docling appends them with their authors (0.73 / 0.60).
  'powerpoint_comments.pptx': 0.7,
  'xlsx_comments.xlsx': 0.57,
  // We tabulate the second chart's series (a 3D bar chart), which docling leaves out (0.83).
  'pptx_chart.pptx': 0.8,
  // Dates show Excel's unpadded hour (0:00:00); docling pads it, a different word (0.90).
  'xlsx_02_sample_sales_data.xlsm': 0.88,
}

// Table cell accuracy (truth cells found at the same row and column of our best-matching
// table) where the truth has tables: 0.9 by default.
const lowerCells: Record<string, number> = {
  // PDF tables are rebuilt from the rules drawn around cells where a page has a grid
  // (pdf-ruled-tables.ts), else from text positions (pdf-tables.ts), precision first:
  // TableFormer's results table: ruled; docling repeats "TEDs" over the three columns it spans,
  // we keep it in the first (0.96).
  '2305.03393v1-pg9.pdf': 0.94,
  // A Korean table of paragraphs in boxed cells: rows and columns right; pdf.js gives the words
  // without some of the spaces docling's text has, so those cells differ (0.60).
  'normal_4pages.pdf': 0.58,
  // Ruled tables; the rules are read only where the position rebuild left a line of three cells
  // or more as prose (reading them costs as much again as the text), which two of its pages'
  // tables (of two-cell lines) do not: those stay as positions give them. Its tick table is
  // right but for its label column's title ("User action", level with the top of the titles
  // set turned 90°, pdf-lines.ts, stays prose): sparse columns (pdf-tables.ts) and an empty
  // column under the title no row ticks (pdf-table-headers.ts). Most of the rest
  // is docling's table of contents, dot leaders in its cells, which we keep as lines (0.51).
  'redp5110_sampled.pdf': 0.49,
  // Ticks by group under two-line column titles (stacked titles joined, pdf-table-headers.ts);
  // docling puts both bullets of a row in its first cell ("y y"), we one in each (0.77).
  'table_mislabeled_as_picture.pdf': 0.74,
  // "yyyy-mm-dd h:mm:ss" shows 0:00:00 as Excel does; docling pads the hour (0.76).
  'xlsx_02_sample_sales_data.xlsm': 0.72,
  // docling cuts this data sheet into one-column tables at every gap; we keep its rows (0.32).
  'xlsx_07_gap_tolerance_.xlsx': 0.28,
  // The "Attached left" label is merged over three rows: we repeat it in each (0.89).
  'xlsx_06_edge_cases_.xlsx': 0.85,
}

const table: {
  file: string
  similarity: string
  threshold: number
  cells?: string
  chars: number
}[] = []

for (const kind of ['pdf', 'docx', 'html', 'pptx', 'xlsx'] as const) {
  describe(`docling ${kind} fixtures`, () => {
    const extensions = kind === 'xlsx' ? ['.xlsx', '.xlsm'] : [`.${kind}`]
    const sources = readdirSync(`${root}${kind}/sources`).filter((f) =>
      extensions.some((extension) => f.endsWith(extension)),
    )
    it('has fixtures to read', () =>
      expect(sources.length).toBeGreaterThan(kind === 'pptx' ? 7 : 10))
    for (const file of sources) {
      it(file, async () => {
        const bytes = new Uint8Array(readFileSync(`${root}${kind}/sources/${file}`))
        const doc = await extractDocument({ bytes, fileName: file })
        expect(doc.format).toBe(kind)
        expect(doc.pages.at(-1)!.end).toBe(doc.text.length)
        const truthPath = `${root}${kind}/groundtruth/${kind === 'pdf' ? file.replace(/\.pdf$/, '.md') : `${file}.md`}`
        if (!existsSync(truthPath)) {
          // Four PDFs ship without a ground truth: they must still yield text.
          expect(doc.text.trim().length).toBeGreaterThan(20)
          table.push({ file, similarity: 'no truth', threshold: 0, chars: doc.text.length })
          return
        }
        // Our slide headings carry the slide number ("# Slide 2: Title"), which docling has not.
        const text = kind === 'pptx' ? doc.text.replace(/^# Slide \d+:? ?/gm, '# ') : doc.text
        const similarity = wordSimilarity(text, readFileSync(truthPath, 'utf8'))
        const threshold = lower[file] ?? defaults[kind]
        const truth = readFileSync(truthPath, 'utf8')
        const cells =
          kind === 'docx' || kind === 'html' ? undefined : tableCellAccuracy(doc.text, truth)
        table.push({
          file,
          similarity: similarity.toFixed(3),
          threshold,
          ...(cells === undefined ? {} : { cells: cells.toFixed(3) }),
          chars: doc.text.length,
        })
        expect(similarity).toBeGreaterThanOrEqual(threshold)
        if (cells !== undefined) expect(cells).toBeGreaterThanOrEqual(lowerCells[file] ?? 0.9)
      })
    }
  })
}

afterAll(() => console.table(table))
