import { describe, expect, it } from 'vitest'
import { nobleVerifier } from '../../../src/identity/index.js'
import { nodeCryptoVerifier } from '../../../src/fast-crypto/index.js'
import {
  applyKeyEvents, keyStatusAt, mergeKeyLog, parseKeyLog, type KeyLogState
} from '../../../src/key-events/index.js'
import { codeOf } from '../../fixtures/error-code.js'
import { KEY_NOW, KEY_VECTORS } from './vectors.js'

describe('key event vectors (record-v1 §13)', () => {
  for (const verifier of [nodeCryptoVerifier, nobleVerifier]) {
    describe(verifier.name, () => {
      const options = { verifier, now: KEY_NOW }
      const states = new Map<string, KeyLogState>()
      for (const log of KEY_VECTORS.logs) {
        it(`the log of ${log.identity} applies, with the ids of the vector`, () => {
          const state = applyKeyEvents(undefined, parseKeyLog({ events: log.events }).events, options)
          expect(state.ids).toEqual(log.ids)
          states.set(log.identity, state)
        })
      }

      it('answers every historical key lookup (K12) as the vector says', () => {
        for (const vector of KEY_VECTORS.status) {
          const state = [...states.values()].find((s) => s.keys.has(vector.key))
          const status = state === undefined ? undefined : keyStatusAt(state, vector.key, Date.parse(vector.at))
          const got = status === undefined ? 'unknown' : status.status === 'valid' ? 'valid' : status.code
          expect(got, `${vector.key_name} at ${vector.at}: ${vector.note}`).toBe(vector.expect)
        }
      })

      for (const vector of KEY_VECTORS.invalid) {
        it(`refuses ${vector.id} (${vector.rule}) with ${vector.expect}`, () => {
          const known = (KEY_VECTORS.logs[1]?.events ?? []).slice(0, vector.known)
          const base = known.length === 0 ? undefined : applyKeyEvents(undefined, known, options)
          expect(codeOf(() => applyKeyEvents(base, parseKeyLog({ events: vector.events }).events, options)), vector.id).toBe(vector.expect)
        })
      }

      it('refuses a fork (K13) and keeps the known log', () => {
        const known = applyKeyEvents(undefined, KEY_VECTORS.conflict.known, options)
        expect(codeOf(() => mergeKeyLog(known, { events: KEY_VECTORS.conflict.received }, options))).toBe(KEY_VECTORS.conflict.expect)
      })
    })
  }

  it('a replay or an older copy of a log adds nothing and checks no signature', () => {
    const log = KEY_VECTORS.logs[0]?.events ?? []
    const known = applyKeyEvents(undefined, log, { verifier: nodeCryptoVerifier, now: KEY_NOW })
    const refusing = { name: 'refusing', verify: () => { throw new Error('no signature may be checked') } }
    expect(mergeKeyLog(known, { events: log }, { verifier: refusing, now: KEY_NOW }).added).toEqual([])
    expect(mergeKeyLog(known, { events: log.slice(0, 2) }, { verifier: refusing, now: KEY_NOW }).added).toEqual([])
  })

  it('an extension has only its new events checked and applied', () => {
    const log = KEY_VECTORS.logs[0]?.events ?? []
    const options = { verifier: nodeCryptoVerifier, now: KEY_NOW }
    const known = applyKeyEvents(undefined, log.slice(0, 3), options)
    const merged = mergeKeyLog(known, { events: log }, options)
    expect(merged.added).toHaveLength(log.length - 3)
    expect(merged.state.ids).toEqual(KEY_VECTORS.logs[0]?.ids)
  })
})
