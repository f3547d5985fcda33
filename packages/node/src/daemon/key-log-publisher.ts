import type { Keyring } from '../key-events/index.js'
import type { Keystore } from '../keystore/index.js'
import type { Logger } from '../log/index.js'
import type { Network } from '../net/index.js'

/**
 * @default 600000 — how often the daemon gossips again the key logs of its own identities, so a
 * peer that was offline (sync-v1 carries records, not key logs) learns a rotation within this time.
 */
export const KEY_LOG_REPUBLISH_MS = 10 * 60 * 1000

export interface KeyLogPublisherInit {
  keyring: Keyring
  keystore: Keystore
  network: Network
  logger: Logger
  /** @default KEY_LOG_REPUBLISH_MS */
  republishMs?: number
}

/**
 * Gossips each key log as soon as this node adds an event to it (gossip-v1 §9), and the logs of the
 * identities whose keys are in keys/ again every `republishMs`. Returns the stop function.
 */
export function startKeyLogPublisher (init: KeyLogPublisherInit): () => void {
  const publish = (identity: string): void => {
    const log = init.keyring.logOf(identity)
    if (log === undefined) return
    init.network.publishKeyLog(log).catch((err: unknown) => {
      init.logger.warn('publishing a key log failed', { identity, error: err })
    })
  }
  const unsubscribe = init.keyring.onAdded((state, _added, source) => {
    if (source === 'local') publish(state.identity) // received logs are relayed by gossipsub itself
  })
  const timer = setInterval(() => {
    void init.keystore.list().then((keys) => {
      for (const identity of new Set(keys.map((k) => init.keyring.identityOf(k.did)))) publish(identity)
    }, () => {})
  }, init.republishMs ?? KEY_LOG_REPUBLISH_MS)
  timer.unref()
  return () => {
    unsubscribe()
    clearInterval(timer)
  }
}
