import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createHttpOperations, type HttpOperations } from '../../../src/api/client.js'
import { readApiToken } from '../../../src/api/index.js'
import { IsnadError } from '../../../src/errors/index.js'
import { SPOT_CHECK_DEFAULTS, startDaemon, type Daemon, type SpotCheckOptions } from '../../../src/daemon/index.js'
import { nodeCryptoVerifier } from '../../../src/native/index.js'
import { changeTrustRoot, initHome, nodePaths } from '../../../src/node/index.js'
import { verifyRecord } from '../../../src/record/index.js'
import type { AttestationRecord, MemoryRecord, WitnessRequestRecord } from '../../../src/schema/index.js'
import { scoreTrustView } from '../../../src/sim/driver/trust-views.js'

/*
 * Spot checks on real daemons over libp2p on 127.0.0.1 (issue 18, docs/trust.md §5a): the observer
 * draws a witness among those it finds reputable — never the author, nor the witness the author
 * asked — asks it with a request its own agent signs, gossiped; that witness's confirm reaches the
 * observer, and under isnad-spot-check (scored over what the observer holds, with its roots) the
 * memory is Attested through that confirm and not through the author's chosen witness's.
 */

const LOOPBACK = ['/ip4/127.0.0.1/tcp/0']
const homes: string[] = []
const daemons: Daemon[] = []

interface Home { home: string, agent: string }

async function home (): Promise<Home> {
  const dir = await mkdtemp(join(tmpdir(), 'isnad-spot-'))
  homes.push(dir)
  const { defaultKey } = await initHome(dir)
  return { home: dir, agent: defaultKey.did }
}

async function start (h: Home, options: { bootstrap?: string[], autoConfirmFrom?: string[], spotChecks?: SpotCheckOptions | false } = {}): Promise<{ daemon: Daemon, ops: HttpOperations }> {
  const daemon = await startDaemon({ home: h.home, listen: LOOPBACK, heartbeatMs: 60_000, ...options })
  daemons.push(daemon)
  return { daemon, ops: createHttpOperations({ url: daemon.url, token: await readApiToken(nodePaths(h.home).data) }) }
}

async function until<T> (probe: () => Promise<T | undefined>, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

interface Held {
  memory?: { id: string, record: MemoryRecord }
  attestations: Array<{ id: string, record: AttestationRecord }>
  requests: Array<{ id: string, record: WitnessRequestRecord }>
}

/**
 * What the observer holds of one memory, every record verified again; nothing while the memory has
 * not reached it (the export answers NOT_FOUND until then, which a probe polls through).
 */
async function heldAt (ops: HttpOperations, memory: string): Promise<Held> {
  const held: Held = { attestations: [], requests: [] }
  const bundle = await ops.exportBundle([memory]).catch((err: unknown) => {
    if (err instanceof IsnadError && err.code === 'NOT_FOUND') return { records: [] }
    throw err
  })
  for (const signed of bundle.records) {
    const v = verifyRecord(signed, { verifier: nodeCryptoVerifier, now: Date.now() })
    const { record } = v.signed
    if (record.kind === 'memory') held.memory = { id: v.id, record }
    else if (record.kind === 'attestation') held.attestations.push({ id: v.id, record })
    else if (record.kind === 'witness_request') held.requests.push({ id: v.id, record })
  }
  return held
}

afterEach(async () => {
  for (const d of daemons.splice(0)) await d.stop()
  for (const h of homes.splice(0)) await rm(h, { recursive: true, force: true })
})

describe('spot checks (on by default)', () => {
  it('asks a witness the author did not choose, and only its confirm makes the memory Attested under isnad-spot-check', async () => {
    const [observerHome, authorHome, chosenHome, drawnHome] = [await home(), await home(), await home(), await home()]
    // The observer's roots: its own agent and the two witnesses (reputation 1 each); the author has none.
    for (const w of [chosenHome.agent, drawnHome.agent]) await changeTrustRoot(nodePaths(observerHome.home).data, 'added', w, Date.now())
    const observer = await start(observerHome, { spotChecks: { delayMs: 1500 } })
    const bootstrap = [observer.daemon.multiaddrs()[0]!]
    const author = await start(authorHome, { bootstrap })
    const chosen = await start(chosenHome, { bootstrap })
    const drawn = await start(drawnHome, { bootstrap, autoConfirmFrom: [observerHome.agent] })
    await until(async () => (await observer.ops.peers()).length >= 3 ? true : undefined, 'three peers')

    const memory = await author.ops.remember({ type: 'fact', summary: 'the staging vpn moved to port 51820' }, await author.ops.resolveSigner())
    await author.ops.requestWitnesses({ memory: memory.id, to: [chosenHome.agent] }, await author.ops.resolveSigner())

    // The observer's own request: signed by its agent, addressed to the drawn witness only.
    const spot = await until(async () => (await heldAt(observer.ops, memory.id)).requests.find((r) => r.record.requester === observerHome.agent), 'the spot check')
    expect(spot.record.witnesses).toEqual([drawnHome.agent])
    // It went out on gossip: the drawn witness's node holds it and its agent answered it.
    await until(async () => (await heldAt(drawn.ops, memory.id)).requests.some((r) => r.id === spot.id) ? true : undefined, 'the request at the drawn witness')

    // The author's chosen witness confirms too.
    await chosen.ops.attest({ memory: memory.id, verdict: 'confirm' }, await chosen.ops.resolveSigner())
    const held = await until(async () => {
      const h = await heldAt(observer.ops, memory.id)
      return h.attestations.length >= 2 ? h : undefined
    }, 'both confirms at the observer')
    expect(held.attestations.map((a) => a.record.witness).sort()).toEqual([chosenHome.agent, drawnHome.agent].sort())

    const roots = [observerHome.agent, chosenHome.agent, drawnHome.agent]
    const levelWith = (witnesses: string[]): string | undefined => {
      const attestations = held.attestations.filter((a) => witnesses.includes(a.record.witness))
      const view = scoreTrustView(new Map([[memory.id, held.memory!.record]]), new Map([[memory.id, attestations]]), roots, Date.now(), new Map([[memory.id, held.requests]]))
      return view.get('isnad-spot-check')?.get(memory.id)?.level
    }
    expect(levelWith([chosenHome.agent]), 'the author\'s chosen witness alone').toBe('Unverified')
    expect(levelWith([drawnHome.agent]), 'the spot-checked witness alone').toBe('Attested')
    expect(levelWith([chosenHome.agent, drawnHome.agent]), 'both').toBe('Attested')
  }, 90_000)

  it('asks one more witness, once, when a drawn witness disputes', async () => {
    const [observerHome, authorHome, firstHome, secondHome] = [await home(), await home(), await home(), await home()]
    for (const w of [firstHome.agent, secondHome.agent]) await changeTrustRoot(nodePaths(observerHome.home).data, 'added', w, Date.now())
    const observer = await start(observerHome, { spotChecks: { delayMs: 500, perMemory: 1, escalation: 1 } })
    const bootstrap = [observer.daemon.multiaddrs()[0]!]
    const author = await start(authorHome, { bootstrap })
    const witnesses = new Map([[firstHome.agent, await start(firstHome, { bootstrap })], [secondHome.agent, await start(secondHome, { bootstrap })]])
    await until(async () => (await observer.ops.peers()).length >= 3 ? true : undefined, 'three peers')
    const memory = await author.ops.remember({ type: 'fact', summary: 'the canary takes 9 minutes' }, await author.ops.resolveSigner())
    const own = async (): Promise<Array<{ id: string, record: WitnessRequestRecord }>> => (await heldAt(observer.ops, memory.id)).requests.filter((r) => r.record.requester === observerHome.agent)
    const [first] = await until(async () => { const r = await own(); return r.length > 0 ? r : undefined }, 'the first spot check')
    const drawnFirst = first!.record.witnesses?.[0] as string
    expect(first!.record.witnesses).toHaveLength(1)
    const disputer = witnesses.get(drawnFirst)!
    await until(async () => (await heldAt(disputer.ops, memory.id)).requests.length > 0 ? true : undefined, 'the request at the first witness')
    await disputer.ops.attest({ memory: memory.id, verdict: 'dispute' }, await disputer.ops.resolveSigner())
    const both = await until(async () => { const r = await own(); return r.length >= 2 ? r : undefined }, 'the escalation')
    const other = [firstHome.agent, secondHome.agent].find((w) => w !== drawnFirst)
    expect(both.map((r) => r.record.witnesses)).toEqual(expect.arrayContaining([[drawnFirst], [other]]))
    // Once: a second dispute asks nobody more.
    await witnesses.get(other as string)!.ops.attest({ memory: memory.id, verdict: 'dispute' }, await witnesses.get(other as string)!.ops.resolveSigner())
    await until(async () => (await heldAt(observer.ops, memory.id)).attestations.length >= 2 ? true : undefined, 'both disputes at the observer')
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(await own()).toHaveLength(2)
  }, 90_000)

  it('keeps to its per-minute budget: beyond it, memories are not checked', async () => {
    const [observerHome, authorHome, witnessHome] = [await home(), await home(), await home()]
    await changeTrustRoot(nodePaths(observerHome.home).data, 'added', witnessHome.agent, Date.now())
    const observer = await start(observerHome, { spotChecks: { delayMs: 200, maxPerMinute: 1 } })
    const author = await start(authorHome, { bootstrap: [observer.daemon.multiaddrs()[0]!] })
    await until(async () => (await observer.ops.peers()).length >= 1 ? true : undefined, 'a peer')
    const signer = await author.ops.resolveSigner()
    const memories = [
      await author.ops.remember({ type: 'fact', summary: 'first of two' }, signer),
      await author.ops.remember({ type: 'fact', summary: 'second of two' }, signer)
    ]
    for (const m of memories) await until(async () => (await heldAt(observer.ops, m.id)).memory, 'the memory at the observer')
    await new Promise((resolve) => setTimeout(resolve, 2000))
    const asked = await Promise.all(memories.map(async (m) => (await heldAt(observer.ops, m.id)).requests.length))
    expect(asked.sort()).toEqual([0, 1])
  }, 60_000)

  it('asks on defaults (no option given, as `isnad start`), and nobody with spotChecks: false (`--no-spot-checks`)', async () => {
    const [defaultHome, offHome, authorHome, witnessHome] = [await home(), await home(), await home(), await home()]
    for (const h of [defaultHome, offHome]) await changeTrustRoot(nodePaths(h.home).data, 'added', witnessHome.agent, Date.now())
    const byDefault = await start(defaultHome)
    const bootstrap = [byDefault.daemon.multiaddrs()[0]!]
    const off = await start(offHome, { bootstrap, spotChecks: false })
    const author = await start(authorHome, { bootstrap })
    await until(async () => (await byDefault.ops.peers()).length >= 2 ? true : undefined, 'two peers')
    const memory = await author.ops.remember({ type: 'fact', summary: 'spot checks are on by default' }, await author.ops.resolveSigner())
    // The default daemon's own request (SPOT_CHECK_DEFAULTS: 2 s after the memory arrives), to the only reputable witness.
    const spot = await until(async () => (await heldAt(byDefault.ops, memory.id)).requests.find((r) => r.record.requester === defaultHome.agent), 'the default daemon\'s spot check')
    expect(spot.record.witnesses).toEqual([witnessHome.agent])
    // The request reached the daemon that is off (gossip), and it asked nobody itself.
    await until(async () => (await heldAt(off.ops, memory.id)).requests.some((r) => r.id === spot.id) ? true : undefined, 'the request at the other observer')
    await new Promise((resolve) => setTimeout(resolve, SPOT_CHECK_DEFAULTS.delayMs + 1000))
    expect((await heldAt(off.ops, memory.id)).requests.filter((r) => r.record.requester === offHome.agent)).toEqual([])
  }, 60_000)
})
