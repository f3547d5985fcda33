import type { Connection, IdentifyResult, PeerId } from '@libp2p/interface'
import type { Logger } from '../log/index.js'
import type { Network } from '../net/index.js'

/*
 * Peers coming and going, in the daemon's log: a peer's first connection and its last
 * one closing at info, with the address and the number of peers left, so the default level shows
 * who the node talks to; each connection and what identify learnt at debug.
 */

/** Logs the network's peer events until the returned function is called. */
export function logPeerEvents (network: Network, logger: Logger): () => void {
  const libp2p = network.libp2p
  const peers = (): number => libp2p.getPeers().length

  const onConnect = (event: CustomEvent<PeerId>): void => {
    const connection = libp2p.getConnections(event.detail)[0]
    logger.info('peer connected', {
      peer: event.detail.toString(),
      addr: connection?.remoteAddr.toString(),
      direction: connection?.direction,
      peers: peers()
    })
  }
  const onDisconnect = (event: CustomEvent<PeerId>): void => {
    logger.info('peer disconnected', { peer: event.detail.toString(), peers: peers() })
  }
  const onOpen = (event: CustomEvent<Connection>): void => {
    const c = event.detail
    logger.debug('connection opened', { peer: c.remotePeer.toString(), addr: c.remoteAddr.toString(), direction: c.direction, id: c.id })
  }
  const onClose = (event: CustomEvent<Connection>): void => {
    const c = event.detail
    logger.debug('connection closed', { peer: c.remotePeer.toString(), addr: c.remoteAddr.toString(), id: c.id })
  }
  const onIdentify = (event: CustomEvent<IdentifyResult>): void => {
    const { peerId, agentVersion, protocols, listenAddrs } = event.detail
    logger.debug('peer identified', { peer: peerId.toString(), agent: agentVersion, protocols: protocols.length, addrs: listenAddrs.map(String) })
  }

  // One signal takes every listener off again (libp2p's event target honours `signal`).
  const stop = new AbortController()
  const options = { signal: stop.signal }
  libp2p.addEventListener('peer:connect', onConnect, options)
  libp2p.addEventListener('peer:disconnect', onDisconnect, options)
  if (logger.isEnabled('debug')) {
    libp2p.addEventListener('connection:open', onOpen, options)
    libp2p.addEventListener('connection:close', onClose, options)
    libp2p.addEventListener('peer:identify', onIdentify, options)
  }
  return () => { stop.abort() }
}
