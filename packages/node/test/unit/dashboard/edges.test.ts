import { describe, expect, it } from 'vitest'
import { edgeBetween } from '../../../src/dashboard/browser/edges.js'
import { segmentCrossesBox } from '../../fixtures/geometry.js'

/*
 * The chain graph's edges (edges.ts) and the test's own crossing check (fixtures/geometry.ts), which
 * the e2e test trusts to find an edge behind a box: both checked on hand-made layouts.
 */

describe('edgeBetween', () => {
  it('runs from the middle of the source\'s right side to the middle of the target\'s left side', () => {
    expect(edgeBetween({ x: 10, y: 100, width: 200, height: 60 }, { x: 300, y: 20, width: 250, height: 40 })).toEqual({ x1: 210, y1: 130, x2: 300, y2: 40 })
  })

  it('crosses no target box but its own when the targets share a column right of the source', () => {
    const source = { x: 0, y: 200, width: 200, height: 80 }
    const targets = [0, 1, 2, 3, 4].map((i) => ({ x: 260, y: i * 110, width: 300, height: 100 }))
    for (const target of targets) {
      const edge = edgeBetween(source, target)
      for (const other of targets.filter((t) => t !== target)) expect(segmentCrossesBox(edge, other)).toBe(false)
      expect(segmentCrossesBox(edge, source)).toBe(false)
      expect(segmentCrossesBox(edge, target)).toBe(false)
    }
  })
})

describe('segmentCrossesBox', () => {
  const box = { x: 100, y: 100, width: 100, height: 50 }
  const vectors: Array<{ id: string, segment: { x1: number, y1: number, x2: number, y2: number }, crosses: boolean }> = [
    { id: 'straight through', segment: { x1: 0, y1: 125, x2: 300, y2: 125 }, crosses: true },
    { id: 'diagonal through a corner region', segment: { x1: 90, y1: 90, x2: 120, y2: 120 }, crosses: true },
    { id: 'ends inside', segment: { x1: 0, y1: 0, x2: 150, y2: 120 }, crosses: true },
    { id: 'wholly inside', segment: { x1: 120, y1: 110, x2: 130, y2: 140 }, crosses: true },
    { id: 'vertical through', segment: { x1: 150, y1: 0, x2: 150, y2: 300 }, crosses: true },
    { id: 'passes above', segment: { x1: 0, y1: 90, x2: 300, y2: 95 }, crosses: false },
    { id: 'stops short', segment: { x1: 0, y1: 125, x2: 99, y2: 125 }, crosses: false },
    { id: 'touches the left side (an edge ending on its box)', segment: { x1: 0, y1: 125, x2: 100, y2: 125 }, crosses: false },
    { id: 'runs along the top border', segment: { x1: 0, y1: 100, x2: 300, y2: 100 }, crosses: false },
    { id: 'misses the corner', segment: { x1: 80, y1: 110, x2: 110, y2: 80 }, crosses: false },
    // The anchor edge of the old layout: from the memory behind a witness box in the middle column.
    { id: 'old layout: behind the middle column', segment: { x1: 236, y1: 63, x2: 584, y2: 63 }, crosses: true }
  ]
  for (const v of vectors) {
    it(v.id, () => {
      const target = v.id.startsWith('old layout') ? { x: 300, y: 28, width: 220, height: 70 } : box
      expect(segmentCrossesBox(v.segment, target), v.id).toBe(v.crosses)
    })
  }
})
