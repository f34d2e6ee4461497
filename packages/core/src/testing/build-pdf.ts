/** Test-only: builds small PDFs byte by byte (correct xref offsets), to make bad PDFs on purpose. */
export interface PdfSpec {
  /**
   * Text shown on each page (an empty string draws a rectangle only: no text layer), or runs
   * of 10 pt text each placed at its own x and baseline y (points from the bottom left).
   */
  pages: (string | PdfRun[])[]
  /** Adds a Standard-security /Encrypt dictionary whose user password is not empty. */
  encrypted?: boolean
}

export interface PdfRun {
  x: number
  y: number
  text: string
}

export function buildPdf({ pages, encrypted = false }: PdfSpec): Uint8Array {
  const objects: string[] = []
  const add = (body: string) => objects.push(body)
  const pageIds = pages.map((_, i) => 4 + i * 2)
  add('<< /Type /Catalog /Pages 2 0 R >>')
  add(
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`,
  )
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>')
  for (const [i, text] of pages.entries()) {
    const stream =
      typeof text !== 'string'
        ? placedRuns(text)
        : text === ''
          ? '10 10 100 100 re f'
          : contentFor(text)
    add(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageIds[i]! + 1} 0 R >>`,
    )
    add(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`)
  }
  const encryptId = objects.length + 1
  if (encrypted) {
    const filler = 'ab'.repeat(32)
    add(`<< /Filter /Standard /V 1 /R 2 /O <${filler}> /U <${'cd'.repeat(32)}> /P -4 >>`)
  }
  let out = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((body, i) => {
    offsets.push(out.length)
    out += `${i + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = out.length
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`
  const id = '<0123456789abcdef0123456789abcdef>'
  const encrypt = encrypted ? ` /Encrypt ${encryptId} 0 R` : ''
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /ID [${id} ${id}]${encrypt} >>\n`
  out += `startxref\n${xref}\n%%EOF\n`
  return new TextEncoder().encode(out)
}

function placedRuns(runs: PdfRun[]): string {
  return runs
    .map(({ x, y, text }) => `BT /F1 10 Tf ${x} ${y} Td (${escape(text)}) Tj ET`)
    .join('\n')
}

const escape = (text: string) => text.replace(/[\\()]/g, '\\$&')

/** One line per input line, top down, in 12 pt Helvetica. */
function contentFor(text: string): string {
  const lines = text.split('\n').map((line) => `(${escape(line)}) Tj T*`)
  return `BT /F1 12 Tf 14 TL 72 720 Td ${lines.join(' ')} ET`
}
