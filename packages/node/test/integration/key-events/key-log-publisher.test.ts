import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startKeyLogPublisher } from '../../../src/daemon/key-log-publisher.js'
import { nodeCryptoVerifier } from '../../../src/fast-crypto/index.js'
import { Keyring, rotateKey, type KeyLog } from '../../../src/key-events/index.js'
import { silentLogger } from '../../../src/log/index.js'
import { createKeystore } from '../../../src/keystore/index.js'
import type { Network } from '../../../src/net/index.js'
import { waitFor } from '../net/fixtures/harness.js'
import { KEY_NOW, KEY_VECTORS } from '../../unit/key-events/vectors.js'

describe('the daemon gossips key logs (gossip-v1 §9)', () => {
  it('publishes a log when this node adds an event, not when one arrives by gossip, and again on the interval', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'isnad-keylog-pub-'))
    try {
      const keystore = createKeystore({ directory: join(dir, 'keys') })
      const keyring = await Keyring.open({ verifier: nodeCryptoVerifier, clock: () => KEY_NOW })
      const published: KeyLog[] = []
      const network = { publishKeyLog: async (log: KeyLog) => { published.push(log); return { topic: 'isnad/v1/key-events', recipients: 1 } } } as unknown as Network
      const stop = startKeyLogPublisher({ keyring, keystore, network, logger: silentLogger, republishMs: 50 })
      await keyring.accept({ events: KEY_VECTORS.logs[1]?.events ?? [] }, 'gossip')
      expect(published).toHaveLength(0)
      const key = await keystore.create()
      const loaded = await keystore.load(key.did)
      await rotateKey({ keyring, keystore, now: () => new Date(KEY_NOW).toISOString() }, { did: loaded.did, secretKey: loaded.secretKey })
      expect(published.at(-1)?.events).toHaveLength(2)
      const count = published.length
      await waitFor('a republication', () => published.length > count)
      expect(published.every((log) => log.events[0]?.record.identity === key.did)).toBe(true)
      stop()
      await keyring.close()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
