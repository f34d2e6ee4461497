import { PDFDocument, type PDFPage, rgb, StandardFonts } from 'pdf-lib'

/** A ruled table to draw: cells (lines split on "\n"), column widths, which rules to draw. */
export interface RuledTable {
  rows: string[][]
  widths: number[]
  /** Draw the outer left and right borders (many tables leave their sides open). */
  sides?: boolean
  /** Leave out the rule under these rows (0-based), as tables do between related rows. */
  unruled?: number[]
  /** Draw each cell's white background first, as some producers do. */
  backgrounds?: boolean
  /** Cells merged with the one below them: no rule between the two (row, column, 0-based). */
  spans?: [number, number][]
  /** Draw the rules in an annotation's appearance over the page instead of in the page. */
  annotation?: boolean
}

const SIZE = 9
const LEADING = 11
const PADDING = 4

/**
 * Test-only: a born-digital US Letter page with a paragraph, the table with its grid drawn as
 * stroked lines (cells top-aligned, wrapped lines as the cell gives them), and a closing
 * paragraph. `boxed` draws a frame around the opening paragraph (one cell: not a table).
 */
export async function ruledTablePdf(table: RuledTable, boxed = false): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  const page = pdf.addPage([612, 792])
  const left = 72
  page.drawText('The survey counted the mills and lamps of each valley town.', {
    x: left,
    y: 720,
    size: 10,
    font,
  })
  if (boxed) {
    page.drawRectangle({
      x: left - 6,
      y: 712,
      width: 400,
      height: 24,
      borderWidth: 0.75,
      borderColor: rgb(0, 0, 0),
    })
  }
  const heights = table.rows.map(
    (row) => Math.max(...row.map((cell) => cell.split('\n').length)) * LEADING + PADDING * 2,
  )
  const xs = table.widths.reduce((edges, width) => [...edges, edges.at(-1)! + width], [left])
  const ys = heights.reduce((edges, height) => [...edges, edges.at(-1)! - height], [680])
  if (table.backgrounds) {
    table.rows.forEach((row, r) =>
      row.forEach((_, c) =>
        page.drawRectangle({
          x: xs[c]!,
          y: ys[r + 1]!,
          width: table.widths[c]!,
          height: heights[r]!,
          color: rgb(1, 1, 1),
        }),
      ),
    )
  }
  const drawing = table.annotation ? pdf.addPage([612, 792]) : page
  const line = (x0: number, y0: number, x1: number, y1: number) =>
    drawing.drawLine({ start: { x: x0, y: y0 }, end: { x: x1, y: y1 }, thickness: 0.5 })
  ys.forEach((y, r) => {
    if (table.unruled?.includes(r - 1)) return
    // Drawn cell by cell, as many producers do; none under a cell merged with the one below.
    xs.slice(1).forEach((x, c) => {
      if (!table.spans?.some(([row, column]) => row === r - 1 && column === c)) {
        line(xs[c]!, y, x, y)
      }
    })
  })
  xs.forEach((x, c) => {
    if (table.sides || (c > 0 && c < xs.length - 1)) line(x, ys[0]!, x, ys.at(-1)!)
  })
  if (table.annotation) await drawAsAnnotation(pdf, page, drawing)
  table.rows.forEach((row, r) =>
    row.forEach((cell, c) =>
      cell.split('\n').forEach((text, k) =>
        page.drawText(text, {
          x: xs[c]! + PADDING,
          y: ys[r]! - PADDING - SIZE - k * LEADING,
          size: SIZE,
          font,
        }),
      ),
    ),
  )
  page.drawText('Both counts were read aloud at the council meeting in the spring.', {
    x: left,
    y: ys.at(-1)! - 30,
    size: 10,
    font,
  })
  return pdf.save()
}

/** Moves what was drawn on `drawing` (a page of its own) into a square annotation over `page`. */
async function drawAsAnnotation(pdf: PDFDocument, page: PDFPage, drawing: PDFPage) {
  const appearance = await pdf.embedPage(drawing)
  pdf.removePage(pdf.getPageIndices().at(-1)!)
  const annotation = pdf.context.obj({
    Type: 'Annot',
    Subtype: 'Square',
    Rect: [0, 0, 612, 792],
    F: 4,
    AP: { N: appearance.ref },
  })
  page.node.addAnnot(pdf.context.register(annotation))
}
