import { describe, expect, it } from 'vitest'
import { detectSignals } from './detect-signals.ts'
import { findPeriods } from './periods.ts'
import { readableTitle } from './readable-title.ts'

describe('readableTitle', () => {
  it.each([
    ['JOHNSON_JOHNSON_2023Q2_EARNINGS.pdf', 'Johnson Johnson 2023 Q2 Earnings'],
    ['AmericanWaterWorks-2020-annual.pdf', 'American Water Works 2020 Annual'],
    ['AMCOR_2022_8K_dated-2022-07-01.pdf', 'Amcor 2022 8K Dated 2022 07 01'],
    ['folder/JPMorganChase FY2019 report.docx', 'JP Morgan Chase FY 2019 Report'],
    ['service-manual_v2.md', 'Service Manual V2'],
    ['US_tax_guide.txt', 'US Tax Guide'],
  ])('%s → %s', (file, title) => {
    expect(readableTitle(file)).toBe(title)
  })

  it('keeps a name with nothing to split as it is', () => {
    expect(readableTitle('___.pdf')).toBe('___.pdf')
  })
})

describe('findPeriods', () => {
  it.each([
    ['for the fiscal year ended December 31, 2018', ['December 31, 2018', '2018']],
    ['For the quarterly period ended June 30, 2022', ['June 30, 2022', '2022']],
    ['as of 30 June 2022 and 2021', ['June 30, 2022', '2022', '2021']],
    ['What was FY2018 capital expenditure?', ['2018']],
    ['in fiscal 2018 and fiscal year 2019', ['2018', '2019']],
    ['revenue in Q2 2023', ['Q2 2023', '2023']],
    ['JOHNSON_JOHNSON_2023Q2_EARNINGS', ['Q2 2023', '2023']],
    ['the second quarter of fiscal 2024', ['Q2 2024', '2024']],
    ['dated 2022-07-01', ['July 1, 2022', '2022']],
  ])('%s', (text, periods) => {
    expect(findPeriods(text)).toEqual(periods)
  })

  it('leaves out numbers that are not years', () => {
    expect(findPeriods('12,345 units, 2018.5 tonnes, 1,2019 and 3020 parts; Q5 2020')).toEqual([
      '2020',
    ])
  })
})

describe('detectSignals', () => {
  it('reads the title, periods and names from the file name and the opening passage', () => {
    const opening = [
      'UNITED STATES SECURITIES AND EXCHANGE COMMISSION',
      'FORM 10-K',
      'For the fiscal year ended December 31, 2018',
      'Acme Widgets, Inc. (Exact name of registrant as specified in its charter)',
      'This agreement is made between Acme Widgets, Inc. and The Harbour Trading Company.',
    ].join('\n')
    expect(detectSignals('ACME_2018_10K.pdf', opening)).toEqual({
      title: 'Acme 2018 10K',
      periods: ['2018', 'December 31, 2018'],
      names: ['Acme Widgets, Inc.', 'Harbour Trading Company'],
      opening,
    })
  })

  it('keeps within the stored limits', () => {
    const opening = Array.from({ length: 40 }, (_, i) => `Maker${i} Ltd. in ${1990 + i}.`).join(' ')
    const signals = detectSignals('x.pdf', opening.repeat(20))
    expect(signals.periods).toHaveLength(20)
    expect(signals.names).toHaveLength(20)
    expect(signals.opening).toHaveLength(4000)
  })
})
