/*
 * The model engine's fast random stream: sfc32 (Chris Doty-Humphrey's Small Fast Counter, PractRand
 * clean to 2^40+ bytes), seeded from the scenario's seed and a stream number. The plan keeps its own
 * stream (src/sim/scenario/seeded-random.ts, pure-rand); this one draws the network's delays, tens of millions per
 * run, where an allocation-free generator matters. Deterministic: a seed fixes every draw.
 */

export interface FastRandom {
  /** Uniform in [0, 1), 32 bits of resolution. */
  next: () => number
}

/** murmur3's 32-bit finaliser over (seed, stream): streams of one seed differ. */
function mix (seed: number, stream: number): number {
  let h = (seed ^ Math.imul(stream + 1, 0x9e3779b1)) >>> 0
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

export function createFastRandom (seed: number, stream: number): FastRandom {
  let a = mix(seed, stream)
  let b = mix(seed, stream + 0x1000)
  let c = mix(seed, stream + 0x2000)
  let d = 1
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    return (t >>> 0) / 4294967296
  }
  // Discard the first outputs: sfc32's state needs a few rounds to mix a weak seed.
  for (let i = 0; i < 12; i++) next()
  return { next }
}
