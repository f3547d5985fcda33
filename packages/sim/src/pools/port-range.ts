import { createServer } from 'node:net'
import { IsnadError } from 'isnad/engine'

/*
 * `isnad sim run --port-range <from>-<to>` (docs/simulation.md, "Runners"): every real node binds
 * its libp2p TCP port and its HTTP API port inside the range, so a firewall or a shared machine can
 * hold a simulation to ports it allows. Each node takes two ports; a node that leaves gives its ports
 * back and takes two others when it joins again. Child processes and worker threads each get their
 * own slice of the range, so no two of them ever hand out the same port.
 */

export interface PortRange {
  from: number
  to: number
}

/** Ports below this need root on most systems: a simulation never needs them. */
export const LOWEST_PORT = 1024
const HIGHEST_PORT = 65535
/** Ports each node binds: libp2p's TCP listener and the HTTP API. */
export const PORTS_PER_NODE = 2

/** "40000-40999" as a range; USAGE for anything else (one number, from above to, outside 1024–65535). */
export function parsePortRange (text: string): PortRange {
  const match = /^\s*(\d{1,5})\s*-\s*(\d{1,5})\s*$/.exec(text)
  if (match === null) throw new IsnadError('USAGE', `--port-range takes <from>-<to>, two port numbers such as 40000-40999, not ${JSON.stringify(text)}`)
  const from = Number(match[1])
  const to = Number(match[2])
  if (from < LOWEST_PORT || to > HIGHEST_PORT) throw new IsnadError('USAGE', `--port-range ${from}-${to} must lie within ${LOWEST_PORT}-${HIGHEST_PORT}`)
  if (from > to) throw new IsnadError('USAGE', `--port-range ${from}-${to} starts above where it ends`)
  return { from, to }
}

export function portsIn (range: PortRange): number {
  return range.to - range.from + 1
}

/**
 * The range cut into `parts` contiguous slices, one per child process or worker thread, each large
 * enough for its share of `nodes` (node i lives in part i mod parts); USAGE when the range is too small.
 */
export function splitPortRange (range: PortRange, parts: number, nodes: number): PortRange[] {
  const slice = Math.floor(portsIn(range) / parts)
  const needed = Math.ceil(nodes / parts) * PORTS_PER_NODE
  if (slice < needed) {
    throw new IsnadError('USAGE', `--port-range ${range.from}-${range.to} holds ${portsIn(range)} ports; ${nodes} nodes${parts > 1 ? ` over ${parts} children` : ''} need ${parts * needed} (${PORTS_PER_NODE} per node: libp2p and the HTTP API)`)
  }
  return Array.from({ length: parts }, (_, k) => ({ from: range.from + k * slice, to: range.from + (k + 1) * slice - 1 }))
}

/** Whether 127.0.0.1:port can be listened on now. */
async function bindable (port: number): Promise<boolean> {
  return await new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => { resolve(false) })
    server.listen({ host: '127.0.0.1', port, exclusive: true }, () => { server.close(() => { resolve(true) }) })
  })
}

/**
 * Hands out the ports of a range, round robin, skipping those this allocator has handed out and not
 * had back and those another process holds (tried by listening on them). A port can still be taken
 * by another process between the try and the node's bind: the pool then takes other ports
 * (local-pool.ts).
 */
export class PortAllocator {
  private next: number
  private readonly held = new Set<number>()

  constructor (readonly range: PortRange) {
    this.next = range.from
  }

  /** A free port of the range; ADDRESS_IN_USE when every port of it is held. */
  async take (): Promise<number> {
    const size = portsIn(this.range)
    for (let tried = 0; tried < size; tried++) {
      const port = this.next
      this.next = port === this.range.to ? this.range.from : port + 1
      if (this.held.has(port)) continue
      if (!await bindable(port)) continue
      this.held.add(port)
      return port
    }
    throw new IsnadError('ADDRESS_IN_USE', `no free port left in --port-range ${this.range.from}-${this.range.to} (${this.held.size} held by the simulation's nodes, the rest by other processes)`)
  }

  release (port: number): void {
    this.held.delete(port)
  }
}
