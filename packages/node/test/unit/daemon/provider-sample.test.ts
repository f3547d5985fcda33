import { createHash } from 'node:crypto'
import { CID } from 'multiformats/cid'
import * as raw from 'multiformats/codecs/raw'
import { sha256 } from 'multiformats/hashes/sha2'
import { describe, expect, it } from 'vitest'
import { SAMPLED_PROVIDERS } from '../../../src/daemon/constants.js'
import { isSampledProvider, providerChance } from '../../../src/daemon/provider-sample.js'

/* content-routing-v1 C2: the holders of a received record that announce it. */

async function cidOf (n: number): Promise<CID> {
  return CID.create(1, raw.code, await sha256.digest(new TextEncoder().encode(`record ${n}`)))
}

function peerOf (n: number): Uint8Array {
  return createHash('sha256').update(`peer ${n}`).digest()
}

describe('providerChance', () => {
  it('is SAMPLED_PROVIDERS among the agents of one shard, at most 1', () => {
    expect(providerChance(8, 1)).toBe(SAMPLED_PROVIDERS / 8)
    expect(providerChance(32, 4)).toBe(SAMPLED_PROVIDERS / 8) // the same shard size: the same chance
    expect(providerChance(160 * 64, 64)).toBe(SAMPLED_PROVIDERS / 160)
    expect(providerChance(2, 1)).toBe(1)
    expect(providerChance(0, 1)).toBe(1) // no estimate yet: every holder announces
  })
})

describe('isSampledProvider', () => {
  it('always at chance 1, never at chance 0', async () => {
    const cid = await cidOf(1)
    expect(isSampledProvider(peerOf(1), cid, 1)).toBe(true)
    expect(isSampledProvider(peerOf(1), cid, 0)).toBe(false)
  })

  it('decides the same for the same node and record every time', async () => {
    const cid = await cidOf(7)
    const first = Array.from({ length: 64 }, (_, n) => isSampledProvider(peerOf(n), cid, 0.375))
    expect(Array.from({ length: 64 }, (_, n) => isSampledProvider(peerOf(n), cid, 0.375))).toEqual(first)
  })

  it('makes about SAMPLED_PROVIDERS of a shard\'s holders the providers of each record', async () => {
    const holders = 40
    const chance = providerChance(holders, 1)
    let providers = 0
    const records = 500
    for (let r = 0; r < records; r++) {
      const cid = await cidOf(r)
      for (let h = 0; h < holders; h++) if (isSampledProvider(peerOf(h), cid, chance)) providers++
    }
    // 20,000 independent draws at 0.075: the mean within 0.2 of 3 (about 5 standard errors).
    expect(Math.abs(providers / records - SAMPLED_PROVIDERS)).toBeLessThan(0.2)
  })
})
