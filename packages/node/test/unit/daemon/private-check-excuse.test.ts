import { sha256 } from '@noble/hashes/sha2.js'
import { describe, expect, it } from 'vitest'
import { hasWeightyDrawnAnswer } from '../../../src/daemon/private-checks.js'
import { proveDraw } from '../../../src/draw/index.js'
import { encodeDidKey, keyPairFromSeed } from '../../../src/identity/index.js'
import { encodeSignature } from '../../../src/record/index.js'
import { shardOf } from '../../../src/shard/index.js'
import type { AttestationRecord } from '../../../src/schema/index.js'
import type { KeyIdentities } from '../../../src/trust/index.js'
import { attestationEvidence, cid, did } from '../trust/fixtures.js'

/*
 * witness-draw-v1 W8: a node skips its private check only when it holds a drawn answer (drawn at
 * this node's estimate) by a witness other than the author whose reputation here is above 0.
 */

const utf8 = new TextEncoder()
const MEMORY = cid('private-check-memory')
const AUTHOR = did('author')
const ESTIMATE = 10

interface Witness { seed: Uint8Array, did: string }

/** The first witness labelled `prefix0`, `prefix1`, … whose draw for MEMORY at `population` is (or is not) drawn. */
function witnessWhere (prefix: string, population: number, drawn: boolean, fits: (did: string) => boolean = () => true): Witness {
  for (let i = 0; i < 400; i++) {
    const seed = sha256(utf8.encode(`${prefix}${i}`))
    const witness = encodeDidKey(keyPairFromSeed(seed).publicKey)
    if (proveDraw(seed, MEMORY, population).drawn === drawn && fits(witness)) return { seed, did: witness }
  }
  throw new Error(`no witness ${prefix}* with drawn = ${String(drawn)}`)
}

function answer (w: Witness, population: number | undefined, shards?: number): AttestationRecord {
  const record = attestationEvidence({ id: cid(`answer-${w.did}`), witness: w.did, verdict: 'confirm', memory: MEMORY }).record
  if (population !== undefined) {
    record.draw = { population, proof: encodeSignature(proveDraw(w.seed, MEMORY, population).proof), ...(shards === undefined ? {} : { shards }) }
  }
  return record
}

const CHECKED = { id: MEMORY, author: AUTHOR, createdAt: '2026-03-01T12:00:00Z' }
const drawn = witnessWhere('drawn-', ESTIMATE, true)
const notDrawn = witnessWhere('not-drawn-', ESTIMATE, false)

describe('private checks: which drawn answers excuse one (witness-draw-v1 W8)', () => {
  const everyone = async (): Promise<boolean> => true
  const nobody = async (): Promise<boolean> => false

  it('a drawn answer by a witness of positive reputation here excuses it', async () => {
    expect(await hasWeightyDrawnAnswer([answer(drawn, ESTIMATE)], CHECKED, ESTIMATE, everyone)).toBe(true)
  })

  it('a drawn answer by a witness this node gives no reputation does not', async () => {
    expect(await hasWeightyDrawnAnswer([answer(drawn, ESTIMATE)], CHECKED, ESTIMATE, nobody)).toBe(false)
    const onlyOther = async (who: string): Promise<boolean> => who === notDrawn.did
    expect(await hasWeightyDrawnAnswer([answer(drawn, ESTIMATE), answer(notDrawn, ESTIMATE)], CHECKED, ESTIMATE, onlyOther)).toBe(false)
  })

  it('answers that are not drawn here do not: no draw, a draw above the threshold, a population the node refuses', async () => {
    expect(await hasWeightyDrawnAnswer([answer(drawn, undefined)], CHECKED, ESTIMATE, everyone)).toBe(false)
    expect(await hasWeightyDrawnAnswer([answer(notDrawn, ESTIMATE)], CHECKED, ESTIMATE, everyone)).toBe(false)
    // A population under half the node's estimate is refused (W6), whatever the fraction.
    const small = witnessWhere('small-', 2, true)
    expect(await hasWeightyDrawnAnswer([answer(small, 2)], CHECKED, ESTIMATE, everyone)).toBe(false)
  })

  it('a draw by a key its identity brought in at or after the memory does not (W11); one from before does', async () => {
    const introducedAt = (at: number): KeyIdentities => ({
      identityOf: (key) => key === drawn.did ? did('identity') : key,
      named: (key) => key === drawn.did,
      refusalAt: () => undefined,
      introducedAt: (key) => key === drawn.did ? at : undefined
    })
    const created = Date.parse(CHECKED.createdAt)
    const excuses = async (identities: KeyIdentities): Promise<boolean> =>
      await hasWeightyDrawnAnswer([answer(drawn, ESTIMATE)], CHECKED, ESTIMATE, everyone, identities)
    expect(await excuses(introducedAt(created))).toBe(false)
    expect(await excuses(introducedAt(created + 60_000))).toBe(false)
    expect(await excuses(introducedAt(created - 1))).toBe(true)
    expect(await excuses(introducedAt(-Infinity))).toBe(true)
  })

  it('a draw within the shard count this node was set to excuses it (W12 under the node\'s own count)', async () => {
    // 32 agents, every node set to 4 shards: the witness drew within 4 shards at population 8.
    const inShard = witnessWhere('in-shard-', 8, true, (w) => shardOf(w, 4) === shardOf(AUTHOR, 4))
    expect(await hasWeightyDrawnAnswer([answer(inShard, 8, 4)], CHECKED, 32, everyone, undefined, 4)).toBe(true)
    expect(await hasWeightyDrawnAnswer([answer(inShard, 8, 4)], CHECKED, 32, everyone)).toBe(false) // count 1 from N̂ = 32
  })

  it('asks about reputation only for accepted draws', async () => {
    const asked: string[] = []
    const recording = async (who: string): Promise<boolean> => { asked.push(who); return false }
    await hasWeightyDrawnAnswer([answer(notDrawn, ESTIMATE), answer(drawn, undefined), answer(drawn, ESTIMATE)], CHECKED, ESTIMATE, recording)
    expect(asked).toEqual([drawn.did])
  })
})
