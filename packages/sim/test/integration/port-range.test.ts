import { afterEach, describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { LocalPool, type NodePool, type PortRange, type SimNodeInfo } from '../../src/index.js'
import { SIM_PACKAGE, ensureBuilt } from '../../../node/test/fixtures/build-dist.js'
import { freePortRange } from '../../../node/test/fixtures/free-port.js'

/*
 * `isnad sim run --port-range`: real daemons (libp2p on 127.0.0.1, the HTTP API) in this thread and
 * over two worker threads bind both their ports inside the range, a node that leaves and joins again
 * binds inside it again, and every node's ports differ.
 */

let pool: NodePool | undefined
afterEach(async () => { await pool?.close(); pool = undefined })

function portsOf (info: SimNodeInfo): number[] {
  const api = Number(new URL(info.url).port)
  const p2p = info.multiaddrs.map((m) => Number(/\/tcp\/(\d+)/.exec(m)?.[1]))
  return [api, ...new Set(p2p)]
}

function expectInside (infos: SimNodeInfo[], range: PortRange): void {
  const all = infos.flatMap(portsOf)
  expect(all).toHaveLength(infos.length * 2)
  for (const port of all) {
    expect(port).toBeGreaterThanOrEqual(range.from)
    expect(port).toBeLessThanOrEqual(range.to)
  }
  expect(new Set(all).size).toBe(all.length)
}

describe('real nodes inside --port-range', () => {
  it('binds every node\'s libp2p and API ports inside the range in one thread, and again after a node joins again', async () => {
    const range = await freePortRange()
    const local = await LocalPool.start({ count: 3, portRange: range })
    pool = local
    const infos = [0, 1, 2].map((i) => local.info(i))
    expectInside(infos, range)
    await local.stop(1)
    const again = await local.restart(1)
    expectInside([local.info(0), again, local.info(2)], range)
  }, 120_000)

  it('binds inside the range over two worker threads, each thread in its own slice', async () => {
    // Worker threads run the compiled child host (dist/).
    ensureBuilt()
    const { ChildPool } = await import(pathToFileURL(join(SIM_PACKAGE, 'dist/src/index.js')).href) as typeof import('../../src/index.js')
    const range = await freePortRange()
    pool = await ChildPool.start(3, 2, () => {}, undefined, 'threads', undefined, range)
    const infos = [0, 1, 2].map((i) => pool!.info(i))
    expectInside(infos, range)
    // node i lives in thread i mod 2: nodes 0 and 2 in the lower half of the range, node 1 in the upper
    const half = range.from + 20
    for (const port of [...portsOf(infos[0]!), ...portsOf(infos[2]!)]) expect(port).toBeLessThan(half)
    for (const port of portsOf(infos[1]!)) expect(port).toBeGreaterThanOrEqual(half)
  }, 120_000)
})
