/*
 * Where the chain graph's edges run (graph.ts). The memory's box sits alone in the left column and
 * every witness and anchor box in the right one, so a straight segment from the middle of the
 * memory's right side to the middle of a target's left side stays in the gutter between the
 * columns: it touches its two boxes and crosses no other. Pure: no DOM.
 */

export interface Box { x: number, y: number, width: number, height: number }
export interface Segment { x1: number, y1: number, x2: number, y2: number }

export function edgeBetween (from: Box, to: Box): Segment {
  return { x1: from.x + from.width, y1: from.y + from.height / 2, x2: to.x, y2: to.y + to.height / 2 }
}

