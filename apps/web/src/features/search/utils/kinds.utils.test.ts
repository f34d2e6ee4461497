import { describe, expect, it } from 'vitest'
import { documentKind, kindsPresent } from './kinds'

describe('documentKind', () => {
  it('names the kind of each stored MIME type, parameters and case aside', () => {
    expect(documentKind('application/pdf')).toBe('pdf')
    expect(documentKind('Text/Markdown; charset=utf-8')).toBe('md')
    expect(documentKind('application/xhtml+xml')).toBe('html')
    expect(documentKind('image/png')).toBeNull()
    expect(documentKind(null)).toBeNull()
  })
})

describe('kindsPresent', () => {
  it('lists each kind once, in a fixed order, leaving unknown types out', () => {
    expect(kindsPresent(['text/csv', 'application/pdf', null, 'text/csv', 'image/png'])).toEqual([
      'pdf',
      'csv',
    ])
  })
})
