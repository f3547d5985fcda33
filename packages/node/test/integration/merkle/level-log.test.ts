import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Level } from 'level'
import { afterAll, describe, expect, it } from 'vitest'
import {
  MerkleLog, computeRoot, createLevelNodeStore, hashLeaf, proveConsistency, proveInclusion, verifyConsistency,
  verifyInclusion
} from '../../../src/merkle/index.js'

/** MerkleLog on real LevelDB in a temp dir: 10k leaves, proofs equal to the pure functions', across reopening. */

const N = 10_000
const directories: string[] = []
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')

afterAll(async () => {
  await Promise.all(directories.map(async (dir) => { await rm(dir, { recursive: true, force: true }) }))
})

/** A fresh LevelDB with the log in a sublevel, as a node would keep it under `.memory/index/`. */
async function openDb (dir: string): Promise<{ db: Level<string, string>, log: MerkleLog }> {
  const db = new Level<string, string>(dir, { keyEncoding: 'utf8', valueEncoding: 'utf8' })
  await db.open()
  const sublevel = db.sublevel<string, Uint8Array>('merkle', { valueEncoding: 'view' })
  return { db, log: await MerkleLog.open({ store: createLevelNodeStore(sublevel) }) }
}

/** Leaf data shaped like record CIDs: 36 bytes, `01 71 12 20` ‖ a digest. */
function leafData (i: number): Uint8Array {
  const out = new Uint8Array(36)
  out.set([0x01, 0x71, 0x12, 0x20])
  out.set(hashLeaf(Uint8Array.of(i & 0xff, (i >> 8) & 0xff, i >> 16)), 4)
  return out
}

/** Deterministic pseudo-random integers (mulberry32), so a failure can be replayed. */
function random (seed: number): (below: number) => number {
  let state = seed >>> 0
  return (below) => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * below)
  }
}

describe('MerkleLog on LevelDB', () => {
  it(`appends ${N.toLocaleString('en-US')} leaves; roots and proofs for random leaves and sizes equal the pure functions'`, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'isnad-merkle-'))
    directories.push(dir)
    const data = Array.from({ length: N }, (_, i) => leafData(i))
    const hashes = data.map(hashLeaf)
    let { db, log } = await openDb(dir)
    const sizes: number[] = []
    // Batches of varying size, with a repeat of earlier leaves in each (idempotent appends).
    const next = random(7)
    for (let at = 0; at < N;) {
      const count = Math.min(N - at, 1 + next(700))
      const repeat = at === 0 ? [] : [data[next(at)] as Uint8Array]
      const results = await log.append([...data.slice(at, at + count), ...repeat])
      expect(results.filter((r) => r.added).length).toBe(count)
      at += count
      sizes.push(at)
    }
    expect(log.size).toBe(N)
    const root = await log.root()
    expect(hex(root)).toBe(hex(computeRoot(hashes)))

    // Closed and reopened: the same log, read from disk.
    await db.close()
    ;({ db, log } = await openDb(dir))
    expect(log.size).toBe(N)
    expect(hex(await log.root())).toBe(hex(root))

    const pick = random(11)
    for (let k = 0; k < 40; k++) {
      const size = 1 + pick(N)
      const index = pick(size)
      const proof = await log.proveInclusion(index, size)
      expect(proof.path.map(hex), `inclusion ${index}@${size}`).toEqual(proveInclusion(hashes, index, size).path.map(hex))
      const sizeRoot = await log.root(size)
      expect(hex(sizeRoot), `root ${size}`).toBe(hex(computeRoot(hashes, size)))
      expect(verifyInclusion(hashes[index] as Uint8Array, proof, sizeRoot)).toBe(true)
      const found = await log.proveInclusionOf(data[index] as Uint8Array, size)
      expect(found?.proof).toEqual(proof)
      const first = pick(size + 1)
      const consistency = await log.proveConsistency(first, size)
      expect(consistency.path.map(hex), `consistency ${first}→${size}`).toEqual(proveConsistency(hashes, first, size).path.map(hex))
      expect(verifyConsistency(consistency, await log.root(first), sizeRoot)).toBe(true)
    }
    // Every size a batch ended at is consistent with the final tree.
    for (const size of sizes.slice(0, 10)) {
      expect(verifyConsistency(await log.proveConsistency(size), await log.root(size), root), `consistency ${size}→${N}`).toBe(true)
    }
    // Re-appending everything after reopening adds nothing.
    const again = await log.append(data.slice(0, 1000))
    expect(again.every((r, i) => !r.added && r.index === i)).toBe(true)
    expect(log.size).toBe(N)
    await db.close()
  }, 120_000)
})
