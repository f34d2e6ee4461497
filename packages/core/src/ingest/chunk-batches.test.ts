import { describe, expect, it } from 'vitest'
import { chunkBatches } from './chunk-batches.ts'

const length = (text: string) => text.length

describe('chunkBatches', () => {
  it('cuts by characters before rows, in order, losing nothing', () => {
    const items = ['aaaa', 'bbbb', 'cc', 'dddddd', 'e']
    expect(chunkBatches(items, length, 10, 8)).toEqual([['aaaa', 'bbbb'], ['cc', 'dddddd'], ['e']])
  })

  it('cuts by rows when the items are small', () => {
    expect(chunkBatches(['a', 'b', 'c', 'd', 'e'], length, 2, 100)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e'],
    ])
  })

  it('sends an item larger than the budget alone', () => {
    expect(chunkBatches(['a', 'x'.repeat(50), 'b'], length, 10, 8)).toEqual([
      ['a'],
      ['x'.repeat(50)],
      ['b'],
    ])
  })

  it('makes no batch of nothing', () => {
    expect(chunkBatches([], length)).toEqual([])
  })
})
