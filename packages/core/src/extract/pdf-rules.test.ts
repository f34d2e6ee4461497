import { getResolvedPDFJS } from 'unpdf'
import { describe, expect, it } from 'vitest'
import { pageRules } from './pdf-rules.ts'

const { OPS } = await getResolvedPDFJS()

/** pdf.js's path data for a rectangle (moveTo, three lineTo, closePath). */
const rectangle = (x: number, y: number, w: number, h: number) =>
  new Float32Array([0, x, y, 1, x + w, y, 1, x + w, y + h, 1, x, y + h, 4])

/** An operator list: [op, args] pairs as pdf.js's getOperatorList gives them. */
function rules(...ops: [number, unknown[] | null][]) {
  return pageRules(
    ops.map(([fn]) => fn),
    ops.map(([, args]) => args),
    OPS,
  )
}

const fill = (data: Float32Array): [number, unknown[]] => [OPS.constructPath, [OPS.fill, [data]]]

describe('pageRules', () => {
  it('reads a thin dark fill as a rule along its middle, in page space', () => {
    expect(
      rules(
        [OPS.save, null],
        [OPS.transform, [1, 0, 0, 1, 100, 200]],
        fill(rectangle(0, 0, 50, 1)),
        [OPS.restore, null],
        fill(rectangle(10, 10, 1, 40)),
      ),
    ).toEqual([
      { x0: 100, x1: 150, y0: 200.5, y1: 200.5 },
      { x0: 10.5, x1: 10.5, y0: 10, y1: 50 },
    ])
  })

  it('reads a shaded cell as edges, and thin light or white fills as nothing', () => {
    const edges = rules([OPS.setFillRGBColor, ['#cceeff']], fill(rectangle(0, 0, 60, 20)))
    expect(edges).toHaveLength(4)
    expect(edges.every((rule) => rule.edge)).toBe(true)
    expect(rules([OPS.setFillRGBColor, ['#cceeff']], fill(rectangle(0, 0, 2, 20)))).toEqual([])
    expect(rules([OPS.setFillRGBColor, ['#ffffff']], fill(rectangle(0, 0, 60, 20)))).toEqual([])
  })

  it('keeps straight strokes, not white ones, curves or clipping paths', () => {
    const line = new Float32Array([0, 0, 0, 1, 80, 0])
    expect(rules([OPS.constructPath, [OPS.stroke, [line]]])).toEqual([
      { x0: 0, x1: 80, y0: 0, y1: 0 },
    ])
    expect(
      rules([OPS.setStrokeRGBColor, ['#ffffff']], [OPS.constructPath, [OPS.stroke, [line]]]),
    ).toEqual([])
    const curve = new Float32Array([0, 0, 0, 2, 10, 5, 20, 5, 30, 0])
    expect(rules([OPS.constructPath, [OPS.stroke, [curve]]])).toEqual([])
    expect(rules([OPS.constructPath, [OPS.endPath, [line]]])).toEqual([])
  })
})
