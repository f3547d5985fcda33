import type { TrustSetting } from '../../reputation/index.js'
import type { Keyring } from '../../key-events/index.js'
import type { RecordStore } from '../../record-index/index.js'
import { rescoreStoredTrust } from './memory-evidence.js'

export interface KeyEventRescoreInit {
  keyring: Keyring
  store: RecordStore
  clock: () => number
  /** The node's current setting; called after `invalidate`, so the reputation reflects the event. */
  setting: () => Promise<TrustSetting>
  /** Drops the cached reputation table: a key event changes who votes as whom, and when. */
  invalidate: () => void
  /** Told of a rescore that failed (the stored scores stay as they were until the next event). */
  onError?: (err: unknown) => void
}

/**
 * A declared compromise reaches stored records (docs/trust.md §1a). Whenever the keyring adds events
 * (a local `id rotate|revoke --compromised-since`, or a key log received by gossip), every stored
 * memory is rescored under the node's setting, so what `query --min-trust` filters on stops
 * counting a record its key could no longer sign at once, as `show` and `trust explain` already do.
 * Rescores run one at a time; events arriving during one are folded into one more. Returns what
 * `close` awaits: the unsubscribe and the last rescore.
 */
export function rescoreOnKeyEvents (init: KeyEventRescoreInit): { stop: () => Promise<void>, idle: () => Promise<void> } {
  let running: Promise<void> = Promise.resolve()
  let pending = false
  const run = async (): Promise<void> => {
    pending = false
    init.invalidate()
    await rescoreStoredTrust(init.store, init.clock(), await init.setting())
  }
  const unsubscribe = init.keyring.onAdded(() => {
    if (pending) return
    pending = true
    running = running.then(run).catch((err: unknown) => { init.onError?.(err) })
  })
  return {
    idle: async () => { await running },
    stop: async () => {
      unsubscribe()
      await running
    }
  }
}
