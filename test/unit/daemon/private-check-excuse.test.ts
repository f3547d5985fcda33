import { sha256 } from '@noble/hashes/sha2.js'
import { describe, expect, it } from 'vitest'
import { hasWeightyDrawnAnswer } from '../../../src/daemon/private-checks.js'
import { proveDraw } from '../../../src/draw/index.js'
import { encodeDidKey, keyPairFromSeed } from '../../../src/identity/index.js'
import { encodeSignature } from '../../../src/record/index.js'
import type { AttestationRecord } from '../../../src/schema/index.js'
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
function witnessWhere (prefix: string, population: number, drawn: boolean): Witness {
  for (let i = 0; i < 200; i++) {
    const seed = sha256(utf8.encode(`${prefix}${i}`))
    if (proveDraw(seed, MEMORY, population).drawn === drawn) return { seed, did: encodeDidKey(keyPairFromSeed(seed).publicKey) }
  }
  throw new Error(`no witness ${prefix}* with drawn = ${String(drawn)}`)
}

function answer (w: Witness, population: number | undefined): AttestationRecord {
  const record = attestationEvidence({ id: cid(`answer-${w.did}`), witness: w.did, verdict: 'confirm', memory: MEMORY }).record
  if (population !== undefined) record.draw = { population, proof: encodeSignature(proveDraw(w.seed, MEMORY, population).proof) }
  return record
}

const drawn = witnessWhere('drawn-', ESTIMATE, true)
const notDrawn = witnessWhere('not-drawn-', ESTIMATE, false)

describe('private checks: which drawn answers excuse one (witness-draw-v1 W8)', () => {
  const everyone = async (): Promise<boolean> => true
  const nobody = async (): Promise<boolean> => false

  it('a drawn answer by a witness of positive reputation here excuses it', async () => {
    expect(await hasWeightyDrawnAnswer([answer(drawn, ESTIMATE)], AUTHOR, ESTIMATE, everyone)).toBe(true)
  })

  it('a drawn answer by a witness this node gives no reputation does not', async () => {
    expect(await hasWeightyDrawnAnswer([answer(drawn, ESTIMATE)], AUTHOR, ESTIMATE, nobody)).toBe(false)
    const onlyOther = async (who: string): Promise<boolean> => who === notDrawn.did
    expect(await hasWeightyDrawnAnswer([answer(drawn, ESTIMATE), answer(notDrawn, ESTIMATE)], AUTHOR, ESTIMATE, onlyOther)).toBe(false)
  })

  it('answers that are not drawn here do not: no draw, a draw above the threshold, a population the node refuses', async () => {
    expect(await hasWeightyDrawnAnswer([answer(drawn, undefined)], AUTHOR, ESTIMATE, everyone)).toBe(false)
    expect(await hasWeightyDrawnAnswer([answer(notDrawn, ESTIMATE)], AUTHOR, ESTIMATE, everyone)).toBe(false)
    // A population under half the node's estimate is refused (W6), whatever the fraction.
    const small = witnessWhere('small-', 2, true)
    expect(await hasWeightyDrawnAnswer([answer(small, 2)], AUTHOR, ESTIMATE, everyone)).toBe(false)
  })

  it('asks about reputation only for accepted draws', async () => {
    const asked: string[] = []
    const recording = async (who: string): Promise<boolean> => { asked.push(who); return false }
    await hasWeightyDrawnAnswer([answer(notDrawn, ESTIMATE), answer(drawn, undefined), answer(drawn, ESTIMATE)], AUTHOR, ESTIMATE, recording)
    expect(asked).toEqual([drawn.did])
  })
})
