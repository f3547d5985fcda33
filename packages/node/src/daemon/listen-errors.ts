import { createServer } from 'node:net'
import { multiaddr } from '@multiformats/multiaddr'
import { IsnadError } from '../errors/index.js'
import { errnoOf } from '../fs/index.js'

/*
 * libp2p reports a listen address it could not take as one error for all of them, its message
 * advising a `transportManager.faultTolerance` setting and carrying the inner stack traces. The
 * operator needs which address failed and why. libp2p has stopped itself by then (libp2p.start
 * stops what it started when it fails), so each configured TCP address is tried again here, alone:
 * its errno says what is wrong with it.
 */

/** What libp2p's transport manager throws when a configured address cannot be listened on. */
const LIBP2P_LISTEN_ERROR = 'UnsupportedListenAddressesError'

interface TcpAddress { address: string, host: string, port: number }

/** The listen multiaddrs that name a TCP port (TCP and WebSockets), with their host and port. */
function tcpAddresses (listen: readonly string[]): TcpAddress[] {
  const found: TcpAddress[] = []
  for (const address of listen) {
    try {
      const parts = multiaddr(address).getComponents()
      const host = parts.find((c) => c.name === 'ip4' || c.name === 'ip6')?.value
      const port = Number(parts.find((c) => c.name === 'tcp')?.value)
      if (host !== undefined && Number.isInteger(port) && port > 0) found.push({ address, host, port })
    } catch {
      // not a multiaddr: libp2p refused it for that reason, told below
    }
  }
  return found
}

/** The errno of listening on host:port now, or undefined when it can be listened on. */
async function tryListen (host: string, port: number): Promise<string | undefined> {
  return await new Promise((resolve) => {
    const server = createServer()
    server.once('error', (err) => { resolve(errnoOf(err) ?? 'EUNKNOWN') })
    server.listen({ host, port, exclusive: true }, () => { server.close(() => { resolve(undefined) }) })
  })
}

const REASONS: Record<string, string> = {
  EADDRNOTAVAIL: 'no interface of this machine has that address',
  EACCES: 'permission denied (ports below 1024 need privileges)'
}

/**
 * A libp2p listen failure as an IsnadError that names the address: ADDRESS_IN_USE when a port is
 * held by another process, IO_ERROR with the reason otherwise. Other errors are returned as they are.
 */
export async function explainListenError (err: unknown, listen: readonly string[]): Promise<unknown> {
  if (!(err instanceof Error) || err.name !== LIBP2P_LISTEN_ERROR) return err
  const failures: Array<TcpAddress & { errno: string }> = []
  for (const candidate of tcpAddresses(listen)) {
    const errno = await tryListen(candidate.host, candidate.port)
    if (errno !== undefined) failures.push({ ...candidate, errno })
  }
  const busy = failures.filter((f) => f.errno === 'EADDRINUSE').map((f) => f.address)
  if (busy.length > 0) {
    return new IsnadError('ADDRESS_IN_USE',
      `cannot listen on ${busy.join(', ')}: the port is in use by another process (another isnad daemon? \`isnad status\` on its home says); stop it, or give other addresses with --listen`,
      { details: { addresses: busy } })
  }
  const other = failures[0]
  if (other !== undefined) {
    return new IsnadError('IO_ERROR', `cannot listen on ${other.address}: ${REASONS[other.errno] ?? other.errno}; give other addresses with --listen`,
      { details: { addresses: [other.address], errno: other.errno } })
  }
  // Nothing failed when tried alone (the holder went away meanwhile, or a non-TCP address): say so.
  return new IsnadError('IO_ERROR', `cannot listen on the configured addresses (${listen.join(', ')}); check them, or give others with --listen`,
    { details: { addresses: [...listen] } })
}
