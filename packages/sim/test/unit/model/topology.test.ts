import { describe, expect, it } from 'vitest'
import { createFastRandom, GOSSIPSUB, hopsOf, ModelTopology, REPAIR, repairsOf, UNREACHABLE } from '../../../src/model/index.js'
import { randomTopology } from '../../../src/index.js'

/*
 * The modelled network's shape: gossipsub's mesh rules on the peer graph, components under churn and
 * partitions, and message distances (flood publish, then the mesh, then IHAVE repair).
 */

function ring (size: number): Array<[number, number]> {
  return Array.from({ length: size }, (_, i) => [i, (i + 1) % size] as [number, number])
}

/** Hop distances over the mesh from `root` by plain BFS, every peer at 1 from the root (flood publish). */
function referenceHops (t: ModelTopology, root: number): number[] {
  const dist = Array.from({ length: t.size }, () => -1)
  dist[root] = 0
  const queue = [root]
  while (queue.length > 0) {
    const u = queue.shift() as number
    for (let s = t.offsets[u] as number; s < (t.offsets[u + 1] as number); s++) {
      const v = t.peers[s] as number
      if (dist[v] !== -1 || (u !== root && t.meshLink[s] !== 1)) continue
      dist[v] = (dist[u] as number) + 1
      queue.push(v)
    }
  }
  return dist
}

describe('ModelTopology', () => {
  it('builds a symmetric mesh within gossipsub bounds: at least Dlo where peers allow, at most Dhi', () => {
    const edges = randomTopology(400, 8, createFastRandom(1, 0).next)
    const t = new ModelTopology(400, edges, createFastRandom(1, 1))
    for (let u = 0; u < 400; u++) {
      const peers = t.peersOf(u).length
      let mesh = 0
      for (let s = t.offsets[u] as number; s < (t.offsets[u + 1] as number); s++) {
        if (t.meshLink[s] !== 1) continue
        mesh++
        const v = t.peers[s] as number
        const back = [...Array.from({ length: (t.offsets[v + 1] as number) - (t.offsets[v] as number) }, (_, k) => (t.offsets[v] as number) + k)].find((k) => t.peers[k] === u)
        expect(t.meshLink[back as number], `mesh link ${u}–${v} is on both ends`).toBe(1)
      }
      expect(mesh).toBe(t.meshDegree[u])
      expect(mesh).toBeLessThanOrEqual(GOSSIPSUB.Dhi)
      expect(mesh).toBeGreaterThanOrEqual(Math.min(GOSSIPSUB.Dlo, peers))
    }
    expect(t.components).toBe(1)
  })

  it('measures publish distances as a BFS over the mesh with a flooded first hop', () => {
    const edges = randomTopology(300, 4, createFastRandom(2, 0).next)
    const t = new ModelTopology(300, edges, createFastRandom(2, 1))
    expect(t.meshSpans).toBe(true)
    for (const source of [0, 17, 299]) {
      const reference = referenceHops(t, source)
      const targets = [1, 50, 150, 298]
      const found = t.distancesFrom(source, targets)
      targets.forEach((target, k) => {
        expect(found[k], `${source} → ${target}`).toBe(reference[target])
        expect(t.publishDistance(source, target), `${source} → ${target} by the reverse search`).toBe(reference[target])
      })
    }
  })

  it('splits components at a partition, drops nodes that leave, and joins them again', () => {
    const t = new ModelTopology(6, ring(6), createFastRandom(3, 1))
    expect(t.connected(0, 3)).toBe(true)
    t.side = Uint8Array.from([1, 1, 1, 0, 0, 0])
    t.rebuild()
    expect(t.components).toBe(2)
    expect(t.connected(0, 2)).toBe(true)
    expect(t.connected(0, 3)).toBe(false)
    expect(t.publishDistance(0, 3)).toBe(UNREACHABLE)
    t.side = null
    t.online[1] = 0
    t.rebuild()
    expect(t.connected(0, 2)).toBe(true)
    expect(t.distancesFrom(0, [2])).toEqual([4])
    expect(t.connected(0, 1)).toBe(false)
  })

  it('a node whose planned neighbours are all away dials others when it comes back', () => {
    const t = new ModelTopology(5, [[0, 1], [1, 2], [2, 3], [3, 4]], createFastRandom(4, 1))
    t.online[0] = 0
    t.online[1] = 0
    t.rebuild()
    t.online[0] = 1
    t.rejoin(0)
    t.rebuild()
    expect(t.connected(0, 4)).toBe(true)
    expect([...t.peersOf(0)].sort()).toEqual([2, 3, 4])
  })

  it('takes an IHAVE repair only where the mesh does not reach, and counts it apart from hops', () => {
    // A star of 20 leaves: the hub grafts at most D of them; the others hear of messages by IHAVE.
    const edges = Array.from({ length: 20 }, (_, i) => [0, i + 1] as [number, number])
    const t = new ModelTopology(21, edges, createFastRandom(5, 1))
    expect(t.meshSpans).toBe(false)
    const meshLeaves = [...t.peersOf(0)].filter((_, k) => t.meshLink[(t.offsets[0] as number) + k] === 1)
    const otherLeaves = [...t.peersOf(0)].filter((v) => !meshLeaves.includes(v))
    expect(meshLeaves.length).toBeGreaterThanOrEqual(GOSSIPSUB.Dlo)
    const [inMesh] = meshLeaves
    const [outside] = otherLeaves
    const d = t.distancesFrom(inMesh as number, [outside as number])[0] as number
    expect([repairsOf(d), hopsOf(d)]).toEqual([1, 2])
    expect(d).toBe(REPAIR + 2)
    // Published by the hub itself, every leaf is one plain hop away (flood publish).
    expect(t.distancesFrom(0, [outside as number])).toEqual([1])
    expect(t.publishDistance(inMesh as number, outside as number)).toBe(REPAIR + 2)
  })
})
