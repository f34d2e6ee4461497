import { PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib'

/** What a two-column page says, part by part, in reading order. */
export interface TwoColumnText {
  title: string
  left: string[]
  right: string[]
  closing: string
}

const ordinals = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth']

/** Sentences each column reads whole; the two columns share words, so interleaving shows. */
export const TWO_COLUMN_TEXT: TwoColumnText = {
  title: 'Notes From The Valley Survey Of Mills And Harbours',
  left: ordinals.map((nth) => `The ${nth} mill on the northern river ground barley for the town.`),
  right: ordinals.map((nth) => `The ${nth} lamp by the southern harbour burned oil until dawn.`),
  closing:
    'Both surveys were completed in the spring, and their findings were read aloud at the ' +
    'council meeting held in the old grain hall beside the bridge.',
}

/**
 * Test-only: a born-digital US Letter page laid out like a paper: a title across the page, two
 * columns of 10 pt text with an 18 pt gutter (narrow enough that Tesseract reads lines across
 * both), and a closing paragraph across the page below them. Scan it with scannedPdf.
 */
export async function twoColumnPdf(text: TwoColumnText = TWO_COLUMN_TEXT): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
  const page = pdf.addPage([612, 792])
  const margin = 72
  const gutter = 18
  const size = 10
  const leading = 13
  const column = (612 - 2 * margin - gutter) / 2
  page.drawText(text.title, { x: margin, y: 710, size: 15, font: bold })
  const left = wrap(text.left.join(' '), font, size, column)
  const right = wrap(text.right.join(' '), font, size, column)
  left.forEach((line, i) => page.drawText(line, { x: margin, y: 680 - i * leading, size, font }))
  right.forEach((line, i) =>
    page.drawText(line, { x: margin + column + gutter, y: 680 - i * leading, size, font }),
  )
  const below = 680 - Math.max(left.length, right.length) * leading - 2 * leading
  wrap(text.closing, font, size, 612 - 2 * margin).forEach((line, i) =>
    page.drawText(line, { x: margin, y: below - i * leading, size, font }),
  )
  return pdf.save()
}

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    const longer = line === '' ? word : `${line} ${word}`
    if (line !== '' && font.widthOfTextAtSize(longer, size) > width) {
      lines.push(line)
      line = word
    } else {
      line = longer
    }
  }
  if (line !== '') lines.push(line)
  return lines
}
