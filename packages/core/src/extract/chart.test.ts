import { DOMParser } from '@xmldom/xmldom'
import { describe, expect, it } from 'vitest'
import { chartText } from './chart.ts'

const C = 'xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart"'
const values =
  '<c:val><c:numRef><c:numCache><c:pt idx="0"><c:v>5</c:v></c:pt></c:numCache></c:numRef></c:val>'
const cats =
  '<c:cat><c:strRef><c:strCache><c:pt idx="0"><c:v>Q1</c:v></c:pt></c:strCache></c:strRef></c:cat>'
const chart = (...names: string[]) =>
  new DOMParser().parseFromString(
    `<c:chartSpace ${C}><c:chart><c:plotArea><c:barChart>${names
      .map((tx) => `<c:ser><c:tx>${tx}</c:tx>${cats}${values}</c:ser>`)
      .join('')}</c:barChart></c:plotArea></c:chart></c:chartSpace>`,
    'text/xml',
  ).documentElement as unknown as Element

describe('chart series names', () => {
  it('reads them as Excel shows them: no formula quotes, doubled quotes as one', () => {
    const text = chartText(
      chart(
        '<c:strRef><c:f>Sheet1!$B$1</c:f><c:strCache><c:pt idx="0"><c:v>Revenue</c:v></c:pt></c:strCache></c:strRef>',
        '<c:strRef><c:f>"Costs"</c:f><c:strCache><c:pt idx="0"><c:v>"Costs"</c:v></c:pt></c:strCache></c:strRef>',
        '<c:v>"Net ""adjusted"""</c:v>',
        '<c:strRef><c:f>"Margin"</c:f></c:strRef>',
      ),
    )
    expect(text).toContain('| | Revenue | Costs | Net "adjusted" | Margin |')
  })

  it('keeps quotes that are part of a name, and numbers series that have none', () => {
    const text = chartText(
      chart('<c:v>The "best" quarter</c:v>', '', '<c:strRef><c:f>Sheet1!$C$1</c:f></c:strRef>'),
    )
    expect(text).toContain('| | The "best" quarter | Series 2 | Series 3 |')
  })
})
