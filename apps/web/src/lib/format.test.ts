import { describe, expect, it } from 'vitest'
import {
  documentType,
  documentTypes,
  formatBytes,
  formatDate,
  formatDateTime,
  isMarkdown,
  pageRange,
  placeLabel,
  typeLabels,
} from './format'

describe('documentType', () => {
  const doc = (mime_type: string | null, title: string, storage_path?: string | null) => ({
    mime_type,
    title,
    storage_path,
  })

  it('reads the MIME type first, ignoring its parameters and case', () => {
    expect(documentType(doc('text/csv; charset=utf-8', 'report.pdf'))).toBe('csv')
    expect(documentType(doc('Application/PDF', 'notes.txt'))).toBe('pdf')
  })

  it('falls back to the stored file name, then to the title', () => {
    expect(documentType(doc(null, 'Renamed report', 'ws/abc/report.docx'))).toBe('docx')
    expect(documentType(doc('application/octet-stream', 'Report.MD', null))).toBe('markdown')
    expect(documentType(doc(null, 'page.htm'))).toBe('html')
    expect(documentType(doc(null, 'Q3 deck', 'ws/abc/deck.pptx'))).toBe('pptx')
    expect(documentType(doc(null, 'budget.xlsm'))).toBe('xlsx')
    expect(documentType(doc('application/vnd.ms-excel.sheet.macroEnabled.12', 'b'))).toBe('xlsx')
    expect([typeLabels.pptx, typeLabels.xlsx]).toEqual(['PowerPoint', 'Excel'])
  })

  it('calls what it cannot tell apart other', () => {
    expect(documentType(doc('application/octet-stream', 'notes'))).toBe('other')
    expect(documentType(doc(null, 'notes.constructor', 'ws/abc/a.toString'))).toBe('other')
    expect(documentType(doc(null, 'archive.zip', 'ws/abc/archive.zip'))).toBe('other')
    expect(typeLabels.other).toBe('Other')
  })

  it('knows which types are read as Markdown', () => {
    expect(documentTypes.filter(isMarkdown)).toEqual(['docx', 'pptx', 'xlsx', 'markdown', 'html'])
  })
})

describe('formatBytes', () => {
  it('sizes in binary units with one decimal under ten', () => {
    expect([0, 1023, 1024, 1536, 10 * 1024, 7_340_039, 3 * 1024 ** 4].map(formatBytes)).toEqual([
      '0 B',
      '1023 B',
      '1.0 KB',
      '1.5 KB',
      '10 KB',
      '7.0 MB',
      '3072 GB',
    ])
  })
})

describe('dates', () => {
  const iso = '2026-03-01T12:34:00Z'
  const local = new Date(iso)

  it('formats the date, and the date with its time, in the reader’s locale', () => {
    expect(formatDate(iso)).toContain(String(local.getFullYear()))
    expect(formatDate(iso)).not.toContain(String(local.getMinutes()))
    expect(formatDateTime(iso)).toContain(formatDate(iso))
    expect(formatDateTime(iso)).toContain(String(local.getMinutes()))
  })
})

describe('pageRange', () => {
  it('names one page or a span, and nothing without a page', () => {
    expect(pageRange(3, 3)).toBe('page 3')
    expect(pageRange(3, null)).toBe('page 3')
    expect(pageRange(3, 5)).toBe('pages 3–5')
    expect(pageRange(null, null)).toBeNull()
  })
})

describe('placeLabel', () => {
  it('counts pages, slides in a presentation, and nothing in a workbook', () => {
    expect(placeLabel('pdf', 3, 3)).toBe('p. 3')
    expect(placeLabel('docx', 3, null)).toBe('p. 3')
    expect(placeLabel('pdf', 3, 5)).toBe('pp. 3–5')
    expect(placeLabel('pptx', 4, 4)).toBe('slide 4')
    expect(placeLabel('pptx', 4, 6)).toBe('slides 4–6')
    expect(placeLabel('xlsx', 1, 1)).toBeNull()
    expect(placeLabel(undefined, 3, 3)).toBe('p. 3')
    expect(placeLabel('pdf', null, null)).toBeNull()
  })
})
