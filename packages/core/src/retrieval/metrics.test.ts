import { describe, expect, it } from 'vitest'
import { mrr, ndcg, percentile, recall } from './metrics.ts'

// Two judged documents: a (grade 2) and b (grade 1); c and d are not relevant.
const relevance = new Map([
  ['a', 2],
  ['b', 1],
  ['z', 0],
])

describe('ndcg', () => {
  it('is 1 for the ideal order and worked out by hand otherwise', () => {
    expect(ndcg(['a', 'b', 'c'], relevance, 10)).toBeCloseTo(1, 12)
    // DCG = 1/log2(3) + 2/log2(4) = 0.63093 + 1; IDCG = 2 + 1/log2(3) = 2.63093
    expect(ndcg(['c', 'b', 'a'], relevance, 10)).toBeCloseTo(1.6309298 / 2.6309298, 6)
  })

  it('counts only the first k results, against an ideal cut at k', () => {
    // k = 1: DCG = 1 (b first), IDCG = 2 (a first).
    expect(ndcg(['b', 'a'], relevance, 1)).toBeCloseTo(0.5, 12)
    expect(ndcg(['c', 'a'], relevance, 1)).toBe(0)
  })

  it('is 0 when nothing is relevant', () => {
    expect(ndcg(['a'], new Map([['a', 0]]), 10)).toBe(0)
  })
})

describe('recall', () => {
  it('is the share of relevant ids in the first k', () => {
    expect(recall(['c', 'a', 'd', 'b'], relevance, 2)).toBe(0.5)
    expect(recall(['c', 'a', 'd', 'b'], relevance, 4)).toBe(1)
    expect(recall(['z', 'c'], relevance, 10)).toBe(0)
  })
})

describe('mrr', () => {
  it('is the reciprocal rank of the first relevant result within k', () => {
    expect(mrr(['c', 'd', 'b', 'a'], relevance, 10)).toBeCloseTo(1 / 3, 12)
    expect(mrr(['c', 'd', 'b'], relevance, 2)).toBe(0)
    expect(mrr(['a'], relevance, 10)).toBe(1)
  })
})

describe('percentile', () => {
  it('takes the nearest rank', () => {
    const samples = [5, 1, 4, 2, 3, 6, 7, 8, 9, 10]
    expect(percentile(samples, 0.5)).toBe(5)
    expect(percentile(samples, 0.95)).toBe(10)
    expect(percentile([], 0.5)).toBeNaN()
  })
})
