import { describe, expect, it } from 'vitest'
import { Keyring, type SignedKeyEvent } from '../../../src/key-events/index.js'
import { nodeCryptoVerifier } from '../../../src/fast-crypto/index.js'
import { keyringIdentities } from '../../../src/node/trust/node-trust.js'
import { KEY_NOW, KEY_VECTORS } from '../key-events/vectors.js'

/*
 * The keyring as src/trust's KeyIdentities: `introducedAt` is record-v1 K12's *from*, by the key
 * event's own time, which the witness draw's W11 compares with a memory's created_at.
 */
describe('keyringIdentities', () => {
  it('says when each key of a log came in: never for the inception key, the event\'s time for a delegate or a rotated-in key', async () => {
    const keyring = await Keyring.open({ verifier: nodeCryptoVerifier, clock: () => KEY_NOW })
    const log = KEY_VECTORS.logs[0] as { identity: string, events: SignedKeyEvent[] }
    await keyring.accept({ events: log.events }, 'gossip')
    const identities = keyringIdentities(keyring)
    for (const { record } of log.events) {
      if (record.type === 'inception') expect(identities.introducedAt(record.identity), 'inception').toBe(-Infinity)
      if (record.type === 'delegation') expect(identities.introducedAt(record.delegate), record.delegate).toBe(Date.parse(record.created_at))
      if (record.type === 'rotation') expect(identities.introducedAt(record.new_key), record.new_key).toBe(Date.parse(record.created_at))
    }
    expect(log.events.some(({ record }) => record.type === 'delegation') && log.events.some(({ record }) => record.type === 'rotation')).toBe(true)
    expect(identities.introducedAt(KEY_VECTORS.logs[1]?.identity ?? '')).toBeUndefined()
    await keyring.close()
  })
})
