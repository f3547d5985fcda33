import { createServer, type Server } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { PortAllocator, parsePortRange, splitPortRange } from '../../src/index.js'
import { isIsnadError } from 'isnad/engine'

/*
 * `--port-range <from>-<to>` (src/sim/pools/port-range.ts): what it accepts and refuses (USAGE), how
 * it is cut among child processes and threads, and the allocator, which skips a port another process
 * holds and says ADDRESS_IN_USE when the range has none left.
 */

function codeOf (fn: () => unknown): string | undefined {
  try { fn() } catch (err) { return isIsnadError(err) ? err.code : 'not an IsnadError' }
  return undefined
}

const servers: Server[] = []
afterAll(async () => { await Promise.all(servers.map(async (s) => { await new Promise((resolve) => s.close(resolve)) })) })

/** A listener on a free port of 127.0.0.1 (another process's, as far as the allocator can tell). */
async function held (port = 0): Promise<number> {
  const server = createServer()
  servers.push(server)
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen({ host: '127.0.0.1', port }, resolve) })
  return (server.address() as { port: number }).port
}

describe('parsePortRange', () => {
  it('reads <from>-<to>', () => {
    expect(parsePortRange('40000-40999')).toEqual({ from: 40000, to: 40999 })
    expect(parsePortRange(' 5000 - 5000 ')).toEqual({ from: 5000, to: 5000 })
  })

  it.each(['40000', '40000-', '-40000', 'a-b', '40000:40010', '40000-40010-40020', '', '1.5-2000'])('refuses %j with USAGE', (text) => {
    expect(codeOf(() => parsePortRange(text))).toBe('USAGE')
  })

  it('refuses a range that runs backwards or leaves 1024–65535', () => {
    expect(codeOf(() => parsePortRange('6000-5000'))).toBe('USAGE')
    expect(codeOf(() => parsePortRange('80-2000'))).toBe('USAGE')
    expect(codeOf(() => parsePortRange('60000-70000'))).toBe('USAGE')
    expect(() => parsePortRange('6000-5000')).toThrow(/starts above where it ends/)
  })
})

describe('splitPortRange', () => {
  it('cuts the range into disjoint slices, one per child', () => {
    expect(splitPortRange({ from: 40000, to: 40011 }, 3, 5)).toEqual([{ from: 40000, to: 40003 }, { from: 40004, to: 40007 }, { from: 40008, to: 40011 }])
    expect(splitPortRange({ from: 40000, to: 40005 }, 1, 3)).toEqual([{ from: 40000, to: 40005 }])
  })

  it('refuses with USAGE a range too small for two ports per node', () => {
    expect(codeOf(() => splitPortRange({ from: 40000, to: 40004 }, 1, 3))).toBe('USAGE')
    // 6 ports for 3 nodes, but over 2 children the second child's 2 nodes need 4 of its 3
    expect(codeOf(() => splitPortRange({ from: 40000, to: 40005 }, 2, 3))).toBe('USAGE')
    expect(() => splitPortRange({ from: 40000, to: 40004 }, 1, 3)).toThrow(/holds 5 ports; 3 nodes need 6/)
  })
})

describe('PortAllocator', () => {
  it('hands out each port of the range once, skipping one another process holds, then ADDRESS_IN_USE', async () => {
    const busy = await held()
    const range = { from: busy - 1, to: busy + 1 }
    const ports = new PortAllocator(range)
    const taken = [await ports.take(), await ports.take()]
    expect(taken.sort()).toEqual([busy - 1, busy + 1])
    await expect(ports.take()).rejects.toMatchObject({ code: 'ADDRESS_IN_USE' })
    ports.release(busy + 1)
    expect(await ports.take()).toBe(busy + 1)
  })
})
