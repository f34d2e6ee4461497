import { describe, expect, it } from 'vitest'
import { chunkDocument } from '../chunk/chunk-document.ts'
import { buildZip } from '../testing/build-zip.ts'
import { extractDocument } from './extract-document.ts'
import { formatNumber } from './number-format.ts'

const utf8 = (text: string) => new TextEncoder().encode(text)
const zip = (parts: Record<string, string>) =>
  buildZip(Object.entries(parts).map(([name, text]) => ({ name, data: utf8(text) })))

const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
const REL = `${R}/`
const rels = (items: [id: string, type: string, target: string][]) =>
  `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items
    .map(
      ([id, type, target]) => `<Relationship Id="${id}" Type="${REL}${type}" Target="${target}"/>`,
    )
    .join('')}</Relationships>`

const P =
  'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"'
const shape = (text: string, { ph = '', y = 0 } = {}) =>
  `<p:sp><p:nvSpPr><p:cNvPr id="1" name="s"/><p:cNvSpPr/><p:nvPr>${ph}</p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="0" y="${y}"/></a:xfrm></p:spPr><p:txBody>${text
    .split('\n')
    .map((line) => `<a:p><a:pPr><a:buNone/></a:pPr><a:r><a:t>${line}</a:t></a:r></a:p>`)
    .join('')}</p:txBody></p:sp>`
const slide = (shapes: string) =>
  `<p:sld ${P} xmlns:r="${R}"><p:cSld><p:spTree>${shapes}</p:spTree></p:cSld></p:sld>`

/** Three slides in presentation order 2, 1, 3 of their file names; the second has notes and a table. */
function presentation(): Uint8Array {
  const table = `<p:graphicFrame><p:xfrm><a:off x="0" y="500"/></p:xfrm><a:graphic><a:graphicData><a:tbl>
    <a:tr><a:tc gridSpan="2"><a:txBody><a:p><a:r><a:t>Region</a:t></a:r></a:p></a:txBody></a:tc><a:tc hMerge="1"/><a:tc><a:txBody><a:p><a:r><a:t>Units</a:t></a:r></a:p></a:txBody></a:tc></a:tr>
    <a:tr><a:tc><a:txBody><a:p><a:r><a:t>North</a:t></a:r></a:p></a:txBody></a:tc><a:tc><a:txBody><a:p><a:r><a:t>Oslo</a:t></a:r></a:p></a:txBody></a:tc><a:tc><a:txBody><a:p><a:r><a:t>42</a:t></a:r></a:p></a:txBody></a:tc></a:tr>
  </a:tbl></a:graphicData></a:graphic></p:graphicFrame>`
  return zip({
    '[Content_Types].xml': '<Types/>',
    'ppt/presentation.xml': `<p:presentation ${P} xmlns:r="${R}"><p:sldIdLst><p:sldId id="256" r:id="rId2"/><p:sldId id="257" r:id="rId1"/><p:sldId id="258" r:id="rId3"/></p:sldIdLst></p:presentation>`,
    'ppt/_rels/presentation.xml.rels': rels([
      ['rId1', 'slide', 'slides/slide1.xml'],
      ['rId2', 'slide', 'slides/slide2.xml'],
      ['rId3', 'slide', 'slides/slide3.xml'],
    ]),
    'ppt/slides/slide2.xml': slide(
      shape('Opening remarks') + shape('Welcome', { ph: '<p:ph type="title"/>', y: 900 }),
    ),
    // Body text placed above the title in the file still reads after it.
    'ppt/slides/slide1.xml': slide(
      shape('Footnote: figures are provisional', { y: 2000 }) +
        table +
        shape('Sales by region', { ph: '<p:ph type="title"/>', y: 100 }),
    ),
    'ppt/slides/_rels/slide1.xml.rels': rels([
      ['rId9', 'notesSlide', '../notesSlides/notesSlide1.xml'],
    ]),
    'ppt/notesSlides/notesSlide1.xml': slide(
      shape('1', { ph: '<p:ph type="sldNum"/>' }) +
        shape('Mention the Oslo pilot.', { ph: '<p:ph type="body" idx="1"/>' }),
    ),
    'ppt/slides/slide3.xml': slide(''),
  })
}

describe('PPTX', () => {
  it('reads one page per slide in presentation order: title first, tables, then notes', async () => {
    const doc = await extractDocument({ bytes: presentation(), fileName: 'deck.pptx' })
    expect(doc.format).toBe('pptx')
    expect(doc.title).toBe('Welcome')
    expect(doc.pages.map((page) => page.number)).toEqual([1, 2, 3])
    const pageText = doc.pages.map((page) => doc.text.slice(page.start, page.end))
    expect(pageText[0]).toBe('# Slide 1: Welcome\n\nOpening remarks')
    expect(pageText[1]).toBe(
      [
        '# Slide 2: Sales by region',
        '| Region | Region | Units |\n| --- | --- | --- |\n| North | Oslo | 42 |',
        'Footnote: figures are provisional',
        'Notes:\n\nMention the Oslo pilot.',
      ].join('\n\n'),
    )
    // An empty slide keeps its number.
    expect(pageText[2]).toBe('')
  })

  it('chunks never span two slides and keep their slide numbers', async () => {
    const doc = await extractDocument({ bytes: presentation(), fileName: 'deck.pptx' })
    const chunks = chunkDocument(doc)
    expect(chunks.map((chunk) => [chunk.pageStart, chunk.pageEnd])).toEqual([
      [1, 1],
      [2, 2],
    ])
    expect(chunks[1]!.headingPath).toEqual(['Slide 2: Sales by region'])
    expect(chunks[1]!.content).toContain('Mention the Oslo pilot.')
  })

  it('is refused as a type mismatch when its content is a workbook', async () => {
    const error = await extractDocument({ bytes: workbook(), fileName: 'deck.pptx' }).catch(
      (e) => e,
    )
    expect(error.code).toBe('type_mismatch')
    expect(error.message).toMatch(/named as a PowerPoint file but its content is an Excel workbook/)
  })
})

const S = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
const cell = (ref: string, value: string, attributes = '') =>
  `<c r="${ref}"${attributes}>${value.startsWith('<') ? value : `<v>${value}</v>`}</c>`
const row = (r: number, cells: string) => `<row r="${r}">${cells}</row>`

/** Two visible sheets and a hidden one, with shared strings, styles, a formula and merges. */
function workbook(rows: string[] = []): Uint8Array {
  const sheet1 = [
    row(
      1,
      cell('A1', '0', ' t="s"') +
        cell('B1', '1', ' t="s"') +
        cell('C1', '2', ' t="s"') +
        cell('D1', '3', ' t="s"'),
    ),
    row(
      2,
      cell('A2', '45292', ' s="1"') +
        cell('B2', '1234.5', ' s="2"') +
        cell('C2', '0.125', ' s="3"') +
        cell('D2', '<f>B2*2</f><v>2469</v>'),
    ),
    row(
      3,
      cell('A3', '45323.5', ' s="4"') +
        cell('B3', '-7', ' s="5"') +
        cell('C3', '1', ' t="b"') +
        cell('D3', '<is><t>inline | text</t></is>', ' t="inlineStr"'),
    ),
    ...rows,
  ].join('')
  return zip({
    '[Content_Types].xml': '<Types/>',
    'xl/workbook.xml': `<workbook ${S} xmlns:r="${R}"><sheets><sheet name="Budget" sheetId="1" r:id="rId1"/><sheet name="Secret" sheetId="2" state="hidden" r:id="rId2"/><sheet name="Regions" sheetId="3" r:id="rId3"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': rels([
      ['rId1', 'worksheet', 'worksheets/sheet1.xml'],
      ['rId2', 'worksheet', 'worksheets/sheet2.xml'],
      ['rId3', 'worksheet', '/xl/worksheets/sheet3.xml'],
      ['rId4', 'sharedStrings', 'sharedStrings.xml'],
      ['rId5', 'styles', 'styles.xml'],
    ]),
    'xl/sharedStrings.xml': `<sst ${S}><si><t>Date</t></si><si><t>Amount</t></si><si><r><t>Sha</t></r><r><t>re</t></r></si><si><t>Twice</t></si><si><t>Europe</t></si></sst>`,
    'xl/styles.xml': `<styleSheet ${S}><numFmts><numFmt numFmtId="164" formatCode="&quot;$&quot;#,##0.00"/><numFmt numFmtId="165" formatCode="d mmm yyyy hh:mm"/></numFmts><cellXfs><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="10"/><xf numFmtId="165"/><xf numFmtId="3"/></cellXfs></styleSheet>`,
    'xl/worksheets/sheet1.xml': `<worksheet ${S}><sheetData>${sheet1}</sheetData></worksheet>`,
    'xl/worksheets/sheet2.xml': `<worksheet ${S}><sheetData>${row(1, cell('A1', 'classified', ' t="str"'))}</sheetData></worksheet>`,
    'xl/worksheets/sheet3.xml': `<worksheet ${S}><sheetData>${row(2, cell('B2', '4', ' t="s"')) + row(3, cell('B3', '10') + cell('C3', '20') + cell('E3', '1', ' t="s"')) + row(4, cell('B4', '30') + cell('C4', '40') + cell('E4', '99'))}</sheetData><mergeCells count="1"><mergeCell ref="B2:C2"/></mergeCells></worksheet>`,
  })
}

describe('XLSX', () => {
  it('reads each visible sheet as a section with its used range as a table, as formatted', async () => {
    const doc = await extractDocument({ bytes: workbook(), fileName: 'budget.xlsm' })
    expect(doc.format).toBe('xlsx')
    expect(doc.text).toBe(
      [
        '## Budget',
        [
          '| Date | Amount | Share | Twice |',
          '| --- | --- | --- | --- |',
          '| 2024-01-01 | $1,234.50 | 12.50% | 2469 |',
          '| 1 Feb 2024 12:00 | -7 | TRUE | inline \\| text |',
        ].join('\n'),
        '## Regions',
        // A merged title over the whole table is its caption; numeric rows get numbered columns.
        'Europe',
        '| Column 1 | Column 2 |\n| --- | --- |\n| 10 | 20 |\n| 30 | 40 |',
        // A table beside it, past an empty column, is a table of its own.
        '| Amount |\n| --- |\n| 99 |',
      ].join('\n\n'),
    )
    expect(doc.text).not.toContain('classified')
  })

  it('cuts a long sheet into passages by rows, each knowing its header row', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) =>
      row(
        i + 4,
        cell(`A${i + 4}`, String(45300 + i), ' s="1"') + cell(`B${i + 4}`, String(i), ' s="5"'),
      ),
    )
    const started = performance.now()
    const doc = await extractDocument({ bytes: workbook(rows), fileName: 'big.xlsx' })
    const chunks = chunkDocument(doc)
    expect(performance.now() - started).toBeLessThan(15_000)
    const budget = chunks.filter((chunk) => chunk.headingPath[0] === 'Budget')
    expect(budget.length).toBeGreaterThan(50)
    for (const chunk of budget.slice(1)) {
      expect(chunk.headingPath).toEqual(['Budget', '| Date | Amount | Share | Twice |'])
      // Never cut inside a row.
      expect(chunk.content.startsWith('| ')).toBe(true)
      expect(chunk.content.endsWith(' |')).toBe(true)
    }
    expect(doc.text).toContain('| 2032-03-26 | 2,999 |')
  })
})

describe('number formats', () => {
  it.each([
    [1234567.891, '#,##0.00', '1,234,567.89'],
    [-1234, '#,##0 ;(#,##0)', '(1,234)'],
    [0.4567, '0.0%', '45.7%'],
    [12345, '0.00E+00', '1.23E+04'],
    [45292, 'mmmm d, yyyy', 'January 1, 2024'],
    [45292.75, 'h:mm AM/PM', '6:00 PM'],
    [45292, 'dddd', 'Monday'],
    [1.5, '[h]:mm:ss', '36:00:00'],
    [3.14159, 'General', '3.14159'],
    [1500000, '#,##0,"K"', '1,500K'],
    [42, '[Red]0;[Blue]-0', '42'],
  ])('%s as %s is %s', (value, format, shown) => expect(formatNumber(value, format)).toBe(shown))

  it('counts from 1904 when the workbook says so', () =>
    expect(formatNumber(0, 'yyyy-mm-dd', true)).toBe('1904-01-01'))
})
