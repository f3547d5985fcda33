import { multiaddr } from '@multiformats/multiaddr'
import type { PeerId } from '@libp2p/interface'
import { IsnadError } from '../errors/index.js'
import type { Logger } from '../log/index.js'
import type { Network } from '../net/index.js'
import { BOOTSTRAP_RETRY_MAX_MS, BOOTSTRAP_RETRY_MS } from './constants.js'

/*
 * The operator's bootstrap peers (`isnad start --bootstrap`), watched. libp2p's bootstrap
 * module dials each once and reports a failure only to its debug log; the daemon dials them itself,
 * so an operator reads which peer could not be reached and why.
 *
 * An unreachable bootstrap peer does not stop the daemon: its API, its local agents and the peers
 * that dial it work without one, and a peer that is down at start is often up a minute later. It is
 * a warning (code PEER_UNREACHABLE) naming the peer, then retried with a doubling delay
 * (BOOTSTRAP_RETRY_MS up to BOOTSTRAP_RETRY_MAX_MS) until connected; a bootstrap peer that
 * disconnects later is dialled again the same way.
 */

export interface BootstrapTarget { address: string, peer: string }

/** Each address with its peer id; USAGE for an address that is not a multiaddr ending in /p2p/<peer id>. */
export function parseBootstrapAddresses (addresses: readonly string[]): BootstrapTarget[] {
  return addresses.map((address) => {
    let peer: string | undefined
    try {
      peer = multiaddr(address).getComponents().findLast((c) => c.name === 'p2p')?.value
    } catch (cause) {
      throw new IsnadError('USAGE', `bootstrap address ${address} is not a multiaddr`, { cause })
    }
    if (peer === undefined) throw new IsnadError('USAGE', `bootstrap address ${address} does not end in /p2p/<peer id>`)
    return { address, peer }
  })
}

export interface BootstrapWatchInit {
  network: Network
  targets: readonly BootstrapTarget[]
  logger: Logger
  /** @default BOOTSTRAP_RETRY_MS */
  retryMs?: number
  /** @default BOOTSTRAP_RETRY_MAX_MS */
  retryMaxMs?: number
}

/** Dials every bootstrap peer now and whenever it is lost; the stop function. */
export function watchBootstrapPeers (init: BootstrapWatchInit): () => void {
  const { network, logger } = init
  const base = init.retryMs ?? BOOTSTRAP_RETRY_MS
  const max = init.retryMaxMs ?? BOOTSTRAP_RETRY_MAX_MS
  const timers = new Map<string, NodeJS.Timeout>()
  const failures = new Map<string, number>()
  let stopped = false

  const connected = (peer: string): boolean => network.libp2p.getConnections().some((c) => c.remotePeer.toString() === peer)

  const schedule = (target: BootstrapTarget, delay: number): void => {
    if (stopped || timers.has(target.peer)) return
    const timer = setTimeout(() => {
      timers.delete(target.peer)
      void dial(target)
    }, delay)
    timer.unref()
    timers.set(target.peer, timer)
  }

  const dial = async (target: BootstrapTarget): Promise<void> => {
    if (stopped || connected(target.peer)) return
    const fields = { peer: target.peer, addr: target.address }
    try {
      await network.dial(target.address)
      if (stopped) return
      failures.delete(target.peer)
      logger.info('bootstrap peer connected', fields)
    } catch (err) {
      if (stopped) return
      const failed = (failures.get(target.peer) ?? 0) + 1
      failures.set(target.peer, failed)
      const retry = Math.min(max, base * 2 ** (failed - 1))
      // The first failure is the operator's business; the retries that follow, a debugger's.
      logger[failed === 1 ? 'warn' : 'debug']('bootstrap peer unreachable; the node keeps running and retries', {
        code: 'PEER_UNREACHABLE', ...fields, error: err instanceof Error ? err.message : String(err), attempt: failed, retry_in_s: retry / 1000
      })
      schedule(target, retry)
    }
  }

  const onDisconnect = (event: CustomEvent<PeerId>): void => {
    const target = init.targets.find((t) => t.peer === event.detail.toString())
    if (target !== undefined) schedule(target, base)
  }

  network.libp2p.addEventListener('peer:disconnect', onDisconnect)
  for (const target of init.targets) void dial(target)
  return () => {
    stopped = true
    network.libp2p.removeEventListener('peer:disconnect', onDisconnect)
    for (const timer of timers.values()) clearTimeout(timer)
    timers.clear()
  }
}
