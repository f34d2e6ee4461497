import { describe, expect, it } from 'vitest'
import { readSearchUrl, writeSearchUrl } from './search-url'

const doc = '0b7c6a2e-4a8f-4d0e-9c1b-2f3e4d5c6b7a'
const chunk = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a'
const collection = '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b'

describe('readSearchUrl', () => {
  it('reads the query, filters and result', () => {
    const params = new URLSearchParams(
      `q=+dried+ferns+&type=pdf&doc=${doc}&collection=${collection}&result=${chunk}`,
    )
    expect(readSearchUrl(params)).toEqual({
      query: 'dried ferns',
      kind: 'pdf',
      documentId: doc,
      collectionId: collection,
      resultId: chunk,
    })
  })

  it('leaves out what a hand-edited link got wrong', () => {
    const params = new URLSearchParams(
      'type=toString&doc=1%27%20or%201=1&collection=%2E%2E&result=x',
    )
    expect(readSearchUrl(params)).toEqual({
      query: '',
      kind: null,
      documentId: null,
      collectionId: null,
      resultId: null,
    })
  })
})

describe('writeSearchUrl', () => {
  it('sets and clears parameters, keeping those it does not own', () => {
    const params = new URLSearchParams(`q=ferns&type=pdf&result=${chunk}&tab=x`)
    expect(writeSearchUrl(params, { query: 'moss & lichen', kind: null })).toBe(
      '?q=moss+%26+lichen&tab=x',
    )
    expect(writeSearchUrl(params, { resultId: chunk })).toBe(
      `?q=ferns&type=pdf&result=${chunk}&tab=x`,
    )
    expect(writeSearchUrl(new URLSearchParams('q=ferns'), { query: '' })).toBe('')
  })
})
